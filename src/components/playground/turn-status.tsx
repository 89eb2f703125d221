import { cn } from "@/components/ui/cn";
import type { TurnStatus } from "./transcript";
import { formatDuration } from "./transcript-view-model";

type TurnStatusProps = { turn: TurnStatus; isAwaitingApproval: boolean; awaitingConnection?: string };

/** How a turn stands: queued, running (or waiting for a person), or how it ended and what it cost. */
export function TurnStatusLine({ turn, isAwaitingApproval, awaitingConnection }: TurnStatusProps) {
  return (
    <p
      data-testid="turn-status"
      data-state={turn.state}
      // Announced when it changes; the streaming text itself is not, it would be too chatty.
      role={turn.state === "error" ? "alert" : "status"}
      className={cn(
        "text-xs",
        turn.state === "error" ? "text-rose-700 dark:text-rose-300" : "text-zinc-500",
        turn.state === "cancelled" && "text-amber-700 dark:text-amber-300",
      )}
    >
      {(turn.state === "running" && waitingFor(isAwaitingApproval, awaitingConnection)) || describe(turn)}
    </p>
  );
}

function waitingFor(isAwaitingApproval: boolean, connection: string | undefined): string | undefined {
  if (isAwaitingApproval) return "Waiting for a decision: approve or deny the parked call above.";
  if (connection) return `Waiting for you to connect ${connection}: use Connect above.`;
  return undefined;
}

function describe(turn: TurnStatus): string {
  const took =
    turn.startedAt && turn.endedAt
      ? ` in ${formatDuration(Date.parse(turn.endedAt) - Date.parse(turn.startedAt))}`
      : "";
  switch (turn.state) {
    case "queued":
      return `Queued, position ${turn.position ?? 1}: it starts when a running turn of this agent finishes.`;
    case "running":
      return "Running…";
    case "cancelled":
      return `Cancelled${took}: ${turn.message ?? "turn interrupted"}.`;
    case "error":
      return `Failed${took}: ${turn.message ?? "unknown error"}. Check the raw events, or send the message again.`;
    case "completed": {
      const usage = turn.usage ? ` · ${turn.usage.inputTokens} in / ${turn.usage.outputTokens} out tokens` : "";
      const cost = turn.cost ? ` · $${turn.cost.totalUsd.toFixed(4)} (${turn.cost.model})` : "";
      return `Completed${took}${usage}${cost}`;
    }
  }
}
