"use client";
// The waterfall: per turn its own time axis (turns of a chat may be hours apart), one row per bar,
// indented under its parent. Every row is a button; the chosen bar's events show below.
import { useEffect, useMemo, useState } from "react";
import type { SessionEvent } from "@/agents/sdk/events";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { JsonBlock } from "./json-block";
import { barDuration, barLabel, formatUsage, kindName } from "./trace-format";
import { barEvents, buildTrace, traceBars, type Trace, type TraceBar, type TraceTurn } from "./trace-model";
import { formatDuration } from "./transcript-view-model";

const kindColor: Record<TraceBar["kind"], string> = {
  turn: "bg-zinc-400 dark:bg-zinc-500",
  step: "bg-indigo-200 dark:bg-indigo-900",
  model: "bg-indigo-500 dark:bg-indigo-400",
  tool: "bg-emerald-500 dark:bg-emerald-400",
  approval: "bg-amber-400 dark:bg-amber-500",
  connection: "bg-sky-400 dark:bg-sky-500",
  subagent: "bg-fuchsia-500 dark:bg-fuchsia-400",
};
const statusTone = { running: "info", ok: "good", error: "bad", cancelled: "warn" } as const;

/** `isLive`: bars of a running turn grow with the clock (not for a file, which is a snapshot). */
export function TraceView({ events, isLive }: { events: readonly SessionEvent[]; isLive: boolean }) {
  const [nowMs, setNowMs] = useState<number>();
  const trace = useMemo(() => buildTrace(events, { nowMs }), [events, nowMs]);
  const [selectedId, setSelectedId] = useState<string>();
  const isRunning = isLive && trace.turns.some((turn) => turn.bars[0]!.isOpen);
  useEffect(() => {
    if (!isRunning) return;
    setNowMs(Date.now());
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [isRunning]);

  const bars = traceBars(trace);
  const selected = bars.find((bar) => bar.id === selectedId);
  if (trace.turns.length === 0) {
    return (
      <p className="p-3 text-sm text-zinc-500" data-testid="trace-empty">
        No turns to show. Open a session or send a message, or open a saved trace file.
      </p>
    );
  }
  const order = new Map(bars.map((bar, position) => [bar.id, position]));
  return (
    <div className="space-y-4" data-testid="trace-view">
      <Legend />
      {trace.turns.map((turn) => (
        <TurnWaterfall
          key={turn.turnId}
          turn={turn}
          order={order}
          selectedId={selectedId}
          onSelect={(id) => setSelectedId((current) => (current === id ? undefined : id))}
        />
      ))}
      {selected ? (
        <BarDetails trace={trace} bar={selected} turn={trace.turns.find((turn) => turn.turnId === selected.turnId)!} />
      ) : (
        <p className="text-xs text-zinc-500">Choose a bar to see the events it was made from.</p>
      )}
    </div>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-[11px] text-zinc-500" aria-label="Legend">
      {Object.entries(kindColor).map(([kind, color]) => (
        <li key={kind} className="flex items-center gap-1">
          <span className={cn("inline-block size-2.5 rounded-sm", color)} aria-hidden />
          {kindName[kind as TraceBar["kind"]]}
        </li>
      ))}
    </ul>
  );
}

type TurnProps = {
  turn: TraceTurn;
  order: Map<string, number>;
  selectedId?: string;
  onSelect: (id: string) => void;
};

function TurnWaterfall({ turn, order, selectedId, onSelect }: TurnProps) {
  const [head] = turn.bars;
  const spanMs = Math.max(1, turn.endMs - turn.startMs);
  return (
    <section data-testid="trace-turn" data-turn-id={turn.turnId} aria-label={`Turn ${turn.number}`} className="text-xs">
      <header className="mb-1 flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        <h3 className="font-semibold">Turn {turn.number}</h3>
        <Badge tone={statusTone[head!.status]}>{head!.status === "ok" ? "completed" : head!.status}</Badge>
        <span className="text-zinc-500 tabular-nums">{barDuration(head!)}</span>
        {head!.usage ? (
          <span className="text-zinc-500" data-testid="trace-turn-usage">
            {formatUsage(head!.usage)}
          </span>
        ) : null}
        {head!.detail ? <p className="w-full truncate text-zinc-500">“{head!.detail}”</p> : null}
        {head!.error ? <p className="w-full text-rose-700 dark:text-rose-300">{head!.error}</p> : null}
      </header>
      <Axis spanMs={spanMs} />
      <ol>
        {turn.bars.map((bar) => (
          <li key={bar.id}>
            <BarRow
              bar={bar}
              turn={turn}
              spanMs={spanMs}
              order={order.get(bar.id)!}
              isSelected={bar.id === selectedId}
              onSelect={onSelect}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

const rowGrid = "grid grid-cols-[8.5rem_1fr_3.75rem] items-center gap-2";

function Axis({ spanMs }: { spanMs: number }) {
  return (
    <div className={cn(rowGrid, "px-1 text-[10px] text-zinc-400")} aria-hidden>
      <span />
      <span className="flex justify-between border-b border-zinc-200 tabular-nums dark:border-zinc-700">
        <span>0</span>
        <span>{formatDuration(Math.round(spanMs / 2))}</span>
        <span>{formatDuration(spanMs)}</span>
      </span>
      <span />
    </div>
  );
}

type BarRowProps = {
  bar: TraceBar;
  turn: TraceTurn;
  spanMs: number;
  order: number;
  isSelected: boolean;
  onSelect: (id: string) => void;
};

function BarRow({ bar, turn, spanMs, order, isSelected, onSelect }: BarRowProps) {
  const left = ((bar.startMs - turn.startMs) / spanMs) * 100;
  const width = ((bar.endMs - bar.startMs) / spanMs) * 100;
  return (
    <button
      type="button"
      data-testid="trace-bar"
      data-kind={bar.kind}
      data-order={order}
      data-start-index={bar.indices[0]}
      data-status={bar.status}
      data-open={bar.isOpen}
      aria-label={barLabel(bar, turn.startMs)}
      aria-pressed={isSelected}
      onClick={() => onSelect(bar.id)}
      className={cn(
        rowGrid,
        "w-full rounded px-1 py-0.5 text-left hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800",
        isSelected && "bg-indigo-50 dark:bg-indigo-950",
      )}
    >
      <span className="truncate" style={{ paddingLeft: `${bar.depth * 0.625}rem` }} title={bar.detail}>
        <span className={cn(bar.kind === "tool" && "font-mono")}>{bar.label}</span>
        {bar.detail && bar.kind !== "turn" ? <span className="text-zinc-500"> · {bar.detail}</span> : null}
      </span>
      <span className="relative h-3 rounded-sm bg-zinc-100 dark:bg-zinc-800/60">
        <span
          className={cn(
            "absolute inset-y-0 rounded-sm",
            bar.status === "error" ? "bg-rose-500" : kindColor[bar.kind],
            bar.isOpen && "rounded-r-none opacity-60",
            bar.status === "running" && "animate-pulse",
          )}
          style={{ left: `${left}%`, width: `max(2px, ${width}%)` }}
        />
      </span>
      <span className="text-right text-zinc-500 tabular-nums">{barDuration(bar)}</span>
    </button>
  );
}

function BarDetails({ trace, bar, turn }: { trace: Trace; bar: TraceBar; turn: TraceTurn }) {
  const events = barEvents(trace, bar);
  return (
    <section
      data-testid="trace-details"
      data-bar-kind={bar.kind}
      aria-label={`Events of ${bar.label}`}
      className="space-y-2 border-t border-zinc-200 pt-3 dark:border-zinc-800"
    >
      <h3 className="text-sm font-semibold">
        {bar.label} <span className="font-normal text-zinc-500">{kindName[bar.kind]}</span>
      </h3>
      <p className="text-xs text-zinc-500">
        from +{formatDuration(bar.startMs - turn.startMs)} · {barDuration(bar)}
        {bar.detail ? ` · ${bar.detail}` : ""} · {events.length} {events.length === 1 ? "event" : "events"}
      </p>
      {events.map((event) => (
        <div key={event.index} data-testid="trace-event" data-index={event.index} data-type={event.type}>
          <JsonBlock label={`#${event.index} ${event.type} · ${event.at}`} value={event} />
        </div>
      ))}
    </section>
  );
}
