// Reminders (docs/schedules.md, "Reminders"): durable wakes bound to one session. `create` records
// the reminder and asks the engine for a delayed call at fireAt; when it comes, `fireReminder`
// delivers the prompt to the session as a coalesced follow-up — unless the reminder was cancelled
// or its session is gone (the row went with it). The API is the one tools see as
// ctx.host.reminders.
import type { PrismaClient } from "@prisma/client";
import crypto from "node:crypto";
import { pgTransaction } from "@/server/db";
import type { DurableRuntime, TurnRequest } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { deliverCoalesced } from "@/server/sessions/deliver-coalesced";
import { parseDuration } from "./parse-duration";

export type ReminderInput = { at?: string; in?: string | number; prompt: string; id?: string };
export type ReminderSummary = { id: string; fireAt: string; prompt: string };

// Far enough for any real use, near enough that a typo cannot park a wake for centuries.
const maxDelayMs = 366 * 86_400_000;

export async function createReminder(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  sessionId: string;
  input: ReminderInput;
  now?: Date;
}): Promise<{ id: string; fireAt: string }> {
  const { db, runtime, sessionId, input, now = new Date() } = options;
  if (typeof input.prompt !== "string" || input.prompt.trim() === "")
    throw new AppError("invalid_input", "a reminder needs a prompt");
  const fireAt =
    input.at !== undefined ? new Date(input.at) : new Date(now.getTime() + (parseDuration(input.in) ?? Number.NaN));
  if (Number.isNaN(fireAt.getTime()))
    throw new AppError("invalid_input", 'give `at` (an ISO date) or `in` (milliseconds, or "90s", "5m", "2h", "1d")');
  if (fireAt.getTime() - now.getTime() > maxDelayMs)
    throw new AppError("invalid_input", "a reminder can be at most a year away");
  const name = input.id ?? `rem_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const row = await db.reminder.upsert({
    where: { sessionId_name: { sessionId, name } },
    create: { sessionId, name, prompt: input.prompt, fireAt },
    // The same id again replaces a pending reminder (a new time or prompt).
    update: { prompt: input.prompt, fireAt, status: "pending" },
    select: { id: true },
  });
  await runtime.scheduleReminder(row.id, Math.max(0, fireAt.getTime() - now.getTime()));
  return { id: name, fireAt: fireAt.toISOString() };
}

export async function listReminders(db: PrismaClient, sessionId: string): Promise<ReminderSummary[]> {
  const rows = await db.reminder.findMany({
    where: { sessionId, status: "pending" },
    orderBy: { fireAt: "asc" },
    select: { name: true, fireAt: true, prompt: true },
  });
  return rows.map((row) => ({ id: row.name, fireAt: row.fireAt.toISOString(), prompt: row.prompt }));
}

export async function cancelReminder(db: PrismaClient, sessionId: string, name: string): Promise<boolean> {
  const { count } = await db.reminder.updateMany({
    where: { sessionId, name, status: "pending" },
    data: { status: "cancelled" },
  });
  return count > 0;
}

/**
 * The delayed call arrived. A reminder moved to another time (created again with its id) is
 * only delivered by the call for its current time.
 */
export async function fireReminder(
  db: PrismaClient,
  reminderId: string,
  now = new Date(),
): Promise<TurnRequest | undefined> {
  return pgTransaction(db, async (client) => {
    const { rows } = await client.query<{ sessionId: string; name: string; prompt: string; due: boolean }>(
      `SELECT "sessionId", name, prompt, ("fireAt" AT TIME ZONE 'UTC') <= $2::timestamptz + interval '1 second' AS due
         FROM reminders WHERE id = $1 AND status = 'pending' FOR UPDATE`,
      [reminderId, now.toISOString()],
    );
    const reminder = rows[0];
    if (!reminder?.due) return undefined;
    await client.query(`UPDATE reminders SET status = 'fired', "firedAt" = now() AT TIME ZONE 'UTC' WHERE id = $1`, [
      reminderId,
    ]);
    const outcome = await deliverCoalesced(client, {
      sessionId: reminder.sessionId,
      text: reminder.prompt,
      deliveryId: `dlv_${reminder.name}`,
    });
    return outcome.kind === "started" ? outcome.turn : undefined;
  });
}
