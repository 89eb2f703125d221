"use client";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ApprovalDecided, ApprovalPending, type Decide } from "./approval-panel";
import { JsonBlock } from "./json-block";
import type { ToolCall, ToolState } from "./transcript";
import { formatDuration } from "./transcript-view-model";

const stateLabel: Record<ToolState, string> = {
  running: "running",
  done: "done",
  error: "error",
  stubbed: "stubbed",
  cancelled: "cancelled",
};
const stateTone = { running: "info", done: "good", error: "bad", stubbed: "warn", cancelled: "neutral" } as const;

type ToolChipProps = { call: ToolCall; calls: Record<string, ToolCall>; onDecide: Decide };

/** One tool call inline in the transcript; a subagent's calls nest inside the call that ran it. */
export function ToolChip({ call, calls, onDecide }: ToolChipProps) {
  const isParked = call.approval?.status === "pending" && call.state === "running";
  const state = isParked ? "awaiting approval" : stateLabel[call.state];
  return (
    <div
      data-testid="tool-chip"
      data-tool={call.toolName}
      data-state={call.state}
      data-call-id={call.callId}
      className={cn(
        "rounded-lg border bg-white px-3 py-2 text-sm dark:bg-zinc-900",
        call.state === "error" ? "border-rose-300 dark:border-rose-800" : "border-zinc-200 dark:border-zinc-800",
      )}
    >
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-2">
          <span className={cn("font-mono font-medium", call.state === "error" && "text-rose-700 dark:text-rose-300")}>
            {call.toolName}
          </span>
          {call.subagent ? <span className="text-xs text-zinc-500">→ {call.subagent.name}</span> : null}
          <Badge tone={isParked ? "warn" : stateTone[call.state]}>{state}</Badge>
          {call.state === "stubbed" ? <span className="text-xs text-zinc-500">dry run: not executed</span> : null}
          {call.durationMs !== undefined ? (
            <span className="text-xs text-zinc-500">{formatDuration(call.durationMs)}</span>
          ) : null}
          {call.retries.length ? (
            <span className="text-xs text-amber-700 dark:text-amber-300">retried {call.retries.length}×</span>
          ) : null}
        </summary>
        <div className="mt-2 space-y-2">
          <JsonBlock label="Arguments" value={call.args ?? {}} />
          {call.retries.map((retry) => (
            <p key={retry.attempt} className="text-xs text-amber-700 dark:text-amber-300">
              Attempt {retry.attempt} after: {retry.error}
            </p>
          ))}
          {call.subagent ? <SubagentDetails call={call} /> : null}
          {hasOwnOutput(call) ? (
            <JsonBlock label={call.state === "error" ? "Error" : "Output"} value={call.output ?? null} />
          ) : null}
        </div>
      </details>
      {call.children.length ? (
        // biome-ignore lint/a11y/useSemanticElements: a group of calls, not a form's fieldset.
        <div
          role="group"
          className="mt-2 space-y-2 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700"
          aria-label={`Calls made by ${call.subagent?.name ?? "the subagent"}`}
        >
          {call.children.map((childId) => {
            const child = calls[childId];
            return child ? <ToolChip key={childId} call={child} calls={calls} onDecide={onDecide} /> : null;
          })}
        </div>
      ) : null}
      {isParked && call.approval ? (
        <ApprovalPending callId={call.callId} toolName={call.toolName} approval={call.approval} onDecide={onDecide} />
      ) : null}
      {call.approval && call.approval.status !== "pending" ? <ApprovalDecided approval={call.approval} /> : null}
    </div>
  );
}

/** A finished call's output, unless it only repeats the subagent result shown above it. */
function hasOwnOutput(call: ToolCall): boolean {
  if (call.state === "running" || call.state === "cancelled") return false;
  return !(call.subagent?.result !== undefined && call.output === call.subagent.result);
}

function SubagentDetails({ call }: { call: ToolCall }) {
  const run = call.subagent!;
  return (
    <div className="space-y-1 text-xs">
      <p>
        Subagent <span className="font-mono">{run.name}</span>, {call.subagentSteps} step
        {call.subagentSteps === 1 ? "" : "s"}
      </p>
      <JsonBlock label="Prompt" value={run.prompt} />
      {run.result !== undefined ? (
        <JsonBlock label={run.isError ? "Subagent error" : "Subagent result"} value={run.result} />
      ) : null}
    </div>
  );
}
