"use client";
// The playground's right-hand panel: one tab per way of looking at the open session. A tab is
// an entry of `tabs`; the panel owns which one shows.
import { type KeyboardEvent, type ReactNode, useState } from "react";
import type { SessionEvent } from "@/agents/sdk/events";
import { cn } from "@/components/ui/cn";
import type { ApiClient } from "./api-client";
import { EvalsPanel } from "./evals-panel";
import { LogsPanel } from "./logs-panel";
import { RawEvents } from "./raw-events";
import { TracePanel } from "./trace-panel";

export type SidePanelProps = {
  events: SessionEvent[];
  sessionId?: string;
  client: ApiClient;
  onOpenSession: (sessionId: string) => void;
  /** Sessions were created elsewhere (an eval run): the session list has rows to add. */
  onSessionsChanged?: () => void;
};

type Tab = { id: string; label: string; render: (props: SidePanelProps) => ReactNode };

const tabs: readonly Tab[] = [
  { id: "raw", label: "Raw", render: ({ events }) => <RawEvents events={events} /> },
  {
    id: "trace",
    label: "Trace",
    render: ({ events, sessionId }) => <TracePanel events={events} sessionId={sessionId} />,
  },
  {
    id: "logs",
    label: "Logs",
    render: ({ client, sessionId, onOpenSession }) => (
      <LogsPanel client={client} sessionId={sessionId} onOpenSession={onOpenSession} />
    ),
  },
  {
    id: "evals",
    label: "Evals",
    render: ({ client, onOpenSession, onSessionsChanged }) => (
      <EvalsPanel client={client} onOpenSession={onOpenSession} onSessionsChanged={onSessionsChanged} />
    ),
  },
];

export function SidePanel(props: SidePanelProps) {
  const [selected, setSelected] = useState(tabs[0]!.id);
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0]!;

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab goes on into the panel.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = tabs[(tabs.indexOf(current) + step + tabs.length) % tabs.length]!;
    setSelected(next.id);
    document.getElementById(`side-tab-${next.id}`)?.focus();
  }

  return (
    <div
      id="side-panel"
      data-testid="side-panel"
      className="flex h-full min-h-0 flex-col border-l border-zinc-200 dark:border-zinc-800"
    >
      <div
        role="tablist"
        aria-label="Inspect the session"
        className="flex gap-1 border-b border-zinc-200 px-2 pt-2 dark:border-zinc-800"
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`side-tab-${tab.id}`}
              data-testid={`side-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`side-tabpanel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => setSelected(tab.id)}
              className={cn(
                "-mb-px rounded-t-md border border-transparent px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500",
                isSelected
                  ? "border-zinc-200 border-b-zinc-50 bg-zinc-50 text-zinc-900 dark:border-zinc-800 dark:border-b-zinc-950 dark:bg-zinc-950 dark:text-zinc-100"
                  : "text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200",
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`side-tabpanel-${current.id}`}
        aria-labelledby={`side-tab-${current.id}`}
        className="min-h-0 flex-1"
      >
        {current.render(props)}
      </div>
    </div>
  );
}
