"use client";
import { useState, type KeyboardEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/field";
import type { ApiClient } from "./api-client";
import type { SessionSummary } from "./types";
import { useSessionList } from "./use-session-list";

const statusTone = { idle: "neutral", waiting: "neutral", running: "info", completed: "good", failed: "bad" } as const;

type SessionListProps = {
  client: ApiClient;
  selectedId?: string;
  refreshKey: number;
  onOpen: (sessionId: string) => void;
  onNewChat: () => void;
};

export function SessionList({ client, selectedId, refreshKey, onOpen, onNewChat }: SessionListProps) {
  const [query, setQuery] = useState("");
  const { sessions, error, hasMore, loadMore } = useSessionList(client, query, refreshKey);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const id = query.trim();
    // An id opens directly, even when the list has not caught up with it (or cannot show it).
    if (event.key === "Enter" && /^ses_\S+$/.test(id)) onOpen(id);
  };
  return (
    <nav aria-label="Sessions" className="flex h-full flex-col gap-3 p-3">
      <Button onClick={onNewChat} data-testid="new-chat">
        New chat
      </Button>
      <Input
        type="search"
        data-testid="session-search"
        aria-label="Search sessions by id or title; Enter on an id opens it"
        placeholder="Search, or paste ses_…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {error ? <ErrorNote testId="session-list-error">{error}</ErrorNote> : null}
      <ul data-testid="session-list" className="min-h-0 flex-1 space-y-1 overflow-y-auto">
        {sessions?.map((session) => (
          <SessionRow key={session.id} session={session} isSelected={session.id === selectedId} onOpen={onOpen} />
        ))}
        {sessions && sessions.length === 0 ? (
          <li className="px-2 py-4 text-sm text-zinc-500">
            {query
              ? "No session matches. Search by title or by an id like ses_…"
              : "No sessions yet. Send a message to start one."}
          </li>
        ) : null}
        {hasMore ? (
          <li>
            <Button variant="ghost" size="sm" className="w-full" onClick={loadMore}>
              Load more sessions
            </Button>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

function SessionRow({
  session,
  isSelected,
  onOpen,
}: {
  session: SessionSummary;
  isSelected: boolean;
  onOpen: (id: string) => void;
}) {
  return (
    <li>
      <button
        type="button"
        data-testid="session-item"
        data-session-id={session.id}
        data-purpose={session.purpose}
        aria-current={isSelected ? "page" : undefined}
        onClick={() => onOpen(session.id)}
        className={cn(
          "w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800",
          isSelected && "bg-indigo-50 dark:bg-indigo-950",
        )}
      >
        <span className="block truncate font-medium">{session.title || session.id}</span>
        <span className="mt-0.5 flex items-center gap-2 text-xs text-zinc-500">
          <Badge tone={statusTone[session.status]}>{session.status}</Badge>
          {session.purpose === "eval" ? (
            <span data-testid="session-eval-badge">
              <Badge tone="info">eval</Badge>
            </span>
          ) : null}
          <time dateTime={session.updatedAt}>{new Date(session.updatedAt).toLocaleString()}</time>
        </span>
      </button>
    </li>
  );
}
