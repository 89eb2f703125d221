// `agentfold/memory`: memoryHook (docs/agent-folders.md, "The `define*` helpers"). Appends one JSON
// line per finished or failed turn to `memory/journal.jsonl`, a deployment-wide file every session
// shares; the instructions' `## Memory` section tells the model to read it with its file tools.
import type { SessionEventOf, Usage } from "./events";
import { defineHook, type HookContext, type HookDescriptor } from "./hooks";
import type { JsonValue } from "./types";

export const memoryJournalPath = "memory/journal.jsonl";

export type MemoryJournalEntry = {
  at: string;
  sessionId: string;
  channelId: string;
  status: "completed" | "failed";
  title: string | null;
  userMessage: string | null;
  result: JsonValue | null;
  usage: Omit<Usage, "reasoningTokens"> | null;
};

/** Turns not yet journaled, oldest first. A preempting message is recorded before the turn it
 * interrupts fails, so messages queue up rather than overwrite each other. */
export type PendingTurns = { userMessage: string; reply?: string }[];

type TurnEnd = SessionEventOf<"turn.completed"> | SessionEventOf<"turn.failed">;

export function memoryJournalEntry(
  event: TurnEnd,
  ctx: Pick<HookContext, "session">,
  turn?: PendingTurns[number],
): MemoryJournalEntry {
  const isCompleted = event.type === "turn.completed";
  const usage = isCompleted ? event.data.usage : undefined;
  const result = isCompleted ? (event.data.result ?? turn?.reply ?? null) : event.data.message;
  return {
    at: event.at,
    sessionId: event.sessionId,
    channelId: ctx.session.channelId,
    status: isCompleted ? "completed" : "failed",
    title: ctx.session.title ?? null,
    userMessage: turn?.userMessage ?? null,
    result,
    usage: usage ? journalUsage(usage) : null,
  };
}

// The journal's documented usage fields; reasoning tokens are not among them.
function journalUsage({ inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens }: Usage) {
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens };
}

// Hooks see each event once, possibly in another process after a restart, so what a turn's end
// needs from earlier events is kept in kv, not in memory.
const pendingKey = (sessionId: string) => `agentfold.memory/${sessionId}`;

async function readPending(ctx: HookContext): Promise<PendingTurns> {
  const value = await ctx.host.kv.get(pendingKey(ctx.session.id));
  return Array.isArray(value) ? (value as PendingTurns) : [];
}

async function writePending(ctx: HookContext, pending: PendingTurns): Promise<void> {
  if (pending.length === 0) await ctx.host.kv.delete(pendingKey(ctx.session.id));
  else await ctx.host.kv.put(pendingKey(ctx.session.id), pending);
}

async function journal(event: TurnEnd, ctx: HookContext): Promise<void> {
  const [turn, ...rest] = await readPending(ctx);
  const line = JSON.stringify(memoryJournalEntry(event, ctx, turn));
  await ctx.host.files.append(memoryJournalPath, `${line}\n`, { scope: "deployment" });
  await writePending(ctx, rest);
}

/** The default memory hook. Eval sessions are left out so test runs do not become history. */
export function memoryHook(): HookDescriptor {
  const live =
    <E>(handler: (event: E, ctx: HookContext) => Promise<void>) =>
    (event: E, ctx: HookContext) =>
      ctx.session.purpose === "eval" ? undefined : handler(event, ctx);
  return defineHook({
    events: {
      "message.received": live(async (event, ctx) => {
        await writePending(ctx, [...(await readPending(ctx)), { userMessage: event.data.text }]);
      }),
      "message.completed": live(async (event, ctx) => {
        const [turn, ...rest] = await readPending(ctx);
        if (turn) await writePending(ctx, [{ ...turn, reply: event.data.text }, ...rest]);
      }),
      "turn.completed": live(journal),
      "turn.failed": live(journal),
    },
  });
}
