// Appends events to a session's log (through group commit, ./group-commit.ts). Indexes are
// gapless under concurrent appends: the session row is locked while indexes are assigned. An
// event with an idempotency key that is already in the log is not appended again (a replayed
// durable step), and the stored event is returned. One SQL statement does it, on every path.
// Subscribers are told through NOTIFY, which Postgres delivers only when the transaction commits.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { toValidEnvelope } from "./envelope";
import { appendStatement, groupAppend, type AppendRequest, type Queryable, type StepRecord } from "./group-commit";
import { sessionEventsChannel } from "@/server/channels";

export type { StepRecord };

export type NewEvent = {
  type: SessionEvent["type"];
  data: unknown;
  turnId?: string;
  /** A stable key per journaled step: the same key never appends twice. */
  idempotencyKey?: string;
};

export async function appendEvents(options: {
  db: PrismaClient;
  sessionId: string;
  events: NewEvent[];
  clock?: () => Date;
  /** The journal row of the turn step these events end: written by the same statement. */
  step?: StepRecord;
  /** The events end their turn and set the session waiting, if nothing stands in the way
   * (AppendRequest.endsTurn); when something does, nothing is written and no events come back. */
  endsTurn?: boolean;
  /** Nothing waits for these events yet: they may wait a moment for the next append to join
   * them in one statement (AppendRequest.linger). */
  linger?: boolean;
  /** Written even when `step`'s run no longer holds the turn (AppendRequest.unfenced). */
  unfenced?: boolean;
}): Promise<SessionEvent[]> {
  const { db, sessionId, events, clock = () => new Date(), step, endsTurn, linger, unfenced } = options;
  if (events.length === 0) return [];
  const at = clock();
  validate(sessionId, events, at);
  let stored: SessionEvent[];
  try {
    stored = await groupAppend(
      poolOf(db),
      { sessionId, events, at, step, endsTurn, linger, unfenced },
      sessionEventsChannel.name,
    );
  } catch (error) {
    // Two appends racing with the same idempotency key: the loser's insert hits the unique
    // index. Run again, the statement now finds the winner's row and returns it.
    if (!isUniqueViolation(error)) throw error;
    stored = await appendOne(poolOf(db), { sessionId, events, at, step, endsTurn, unfenced });
  }
  return stored;
}

/**
 * The same, inside a transaction the caller owns on `client` (to write rows and their events
 * together, atomically). The same single statement as group commit; NOTIFY fires on commit.
 */
export async function appendEventsInTransaction(options: {
  client: Queryable;
  sessionId: string;
  events: NewEvent[];
  clock?: () => Date;
  step?: StepRecord;
}): Promise<SessionEvent[]> {
  const { client, sessionId, events, clock = () => new Date(), step } = options;
  if (events.length === 0) return [];
  const at = clock();
  validate(sessionId, events, at);
  // The step's record commits with the caller's transaction.
  return appendOne(client, { sessionId, events, at, step });
}

async function appendOne(client: Queryable, request: AppendRequest): Promise<SessionEvent[]> {
  const [stored = []] = await appendStatement(client, [request], sessionEventsChannel.name);
  if (stored.length === 0 && !request.endsTurn) throw new AppError("not_found", `no session ${request.sessionId}`);
  return stored;
}

/** Validates before writing (the index is not known yet and does not affect validity): a
 * producer that drifts from the vocabulary fails here, loudly. */
function validate(sessionId: string, events: NewEvent[], at: Date): void {
  for (const event of events)
    toValidEnvelope({ sessionId, index: 0, type: event.type, turnId: event.turnId ?? null, at, data: event.data });
}

function isUniqueViolation(error: unknown): boolean {
  return /unique constraint|P2002|23505/i.test(String((error as Error)?.message ?? error));
}
