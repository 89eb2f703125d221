// Words for the Trace tab's bars: what a screen reader hears and what the rows print.
import type { Usage } from "@/agents/sdk/events";
import type { TraceBar, TraceBarKind, TraceBarStatus } from "./trace-model";
import { formatDuration } from "./transcript-view-model";

export const kindName: Record<TraceBarKind, string> = {
  turn: "turn",
  step: "model step",
  model: "model call",
  tool: "tool call",
  approval: "approval wait",
  connection: "connect wait",
  subagent: "subagent run",
};

/** How a wait that went wrong went wrong, where "failed" would mislead. */
const errorName: Partial<Record<TraceBarKind, string>> = { approval: "denied", connection: "not connected in time" };

const statusName: Record<TraceBarStatus, string> = {
  running: "running",
  ok: "finished",
  error: "failed",
  cancelled: "never finished",
};

/** How long a bar took, or that it is still going. */
export function barDuration(bar: TraceBar): string {
  if (bar.durationMs !== undefined) return formatDuration(bar.durationMs);
  return bar.status === "running" ? "running" : "open";
}

export function formatUsage(usage: Usage): string {
  const parts = [`${usage.inputTokens.toLocaleString("en")} in`, `${usage.outputTokens.toLocaleString("en")} out`];
  if (usage.cacheReadTokens) parts.push(`${usage.cacheReadTokens.toLocaleString("en")} cache read`);
  if (usage.cacheWriteTokens) parts.push(`${usage.cacheWriteTokens.toLocaleString("en")} cache write`);
  if (usage.reasoningTokens) parts.push(`${usage.reasoningTokens.toLocaleString("en")} reasoning`);
  return `${(usage.inputTokens + usage.outputTokens).toLocaleString("en")} tokens (${parts.join(" · ")})`;
}

/** `lookup_order: tool call, finished, 250 ms, from +0.6 s, 2 events`. */
export function barLabel(bar: TraceBar, turnStartMs: number): string {
  const parts = [
    kindName[bar.kind],
    (bar.status === "error" && errorName[bar.kind]) || statusName[bar.status],
    ...(bar.durationMs !== undefined ? [formatDuration(bar.durationMs)] : []),
    `from +${formatDuration(bar.startMs - turnStartMs)}`,
  ];
  if (bar.usage) parts.push(formatUsage(bar.usage));
  parts.push(`${bar.indices.length} ${bar.indices.length === 1 ? "event" : "events"}`);
  return `${bar.label}: ${parts.join(", ")}`;
}
