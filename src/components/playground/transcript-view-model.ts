// Read-only views of a transcript for the screen: where each turn's status goes, whether a turn
// is running, and what waits for a person.
import type { Principal } from "@/agents/sdk/types";
import type { ConnectionAuth, ToolCall, Transcript, TranscriptItem, TurnStatus } from "./transcript-types";

export type TranscriptBlock = { kind: "item"; item: TranscriptItem } | { kind: "turn"; key: string; turn: TurnStatus };

/** Items in order, each turn's status placed after that turn's last item. */
export function transcriptBlocks(t: Transcript): TranscriptBlock[] {
  const lastPosition = new Map<string, number>();
  for (const [position, item] of t.items.entries()) if (item.turnId) lastPosition.set(item.turnId, position);
  const blocks: TranscriptBlock[] = [];
  t.items.forEach((item, position) => {
    blocks.push({ kind: "item", item });
    const turn = item.turnId ? t.turns[item.turnId] : undefined;
    if (turn && lastPosition.get(turn.turnId) === position)
      blocks.push({ kind: "turn", key: `turn-${turn.turnId}`, turn });
  });
  for (const turn of Object.values(t.turns)) {
    if (!lastPosition.has(turn.turnId)) blocks.push({ kind: "turn", key: `turn-${turn.turnId}`, turn });
  }
  return blocks;
}

export function isTurnActive(t: Transcript): boolean {
  return Object.values(t.turns).some((turn) => turn.state === "queued" || turn.state === "running");
}

/** Calls parked for a decision that can still get one. */
export function pendingApprovals(t: Transcript): ToolCall[] {
  return Object.values(t.calls).filter((call) => call.approval?.status === "pending" && call.state === "running");
}

/** Connections a turn waits for someone to connect, with the turn that waits. */
export function pendingConnections(t: Transcript): { turnId?: string; auth: ConnectionAuth }[] {
  return t.items.flatMap((item) =>
    item.kind === "connection" && item.auth.status === "pending" ? [{ turnId: item.turnId, auth: item.auth }] : [],
  );
}

export function principalLabel(principal: Principal | undefined): string {
  if (!principal) return "nobody";
  return principal.attributes?.name || principal.attributes?.email || principal.id;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
