// Everything durable goes through this interface, so another engine can be added behind it.
import type { Outcome } from "@/server/errors";
import type { DirectCallOutcome, DirectCallRequest } from "@/server/tools/schema";

export type TurnRequest = {
  sessionId: string;
  turnId: string;
  message: string;
  /** Files to write into the session workspace before the turn (paths already checked). */
  workspaceFiles?: Record<string, string>;
};

/** A fired schedule: its task session, or `ran` for a schedule with code; a refusal is an
 * AppError's wire form, which the web rethrows. */
export type FireScheduleOutcome = Outcome<{ sessionId: string } | { ran: true }>;

export type DurableRuntime = {
  /** The engine itself answers its health check. */
  isHealthy: () => Promise<boolean>;
  /** Makes a worker endpoint known to the engine. Idempotent. */
  registerWorker: (workerUrl: string) => Promise<void>;
  /** Queues a turn on the session's durable object (one running turn per session). */
  sendTurn: (turn: TurnRequest) => Promise<{ invocationId: string }>;
  /**
   * Cancels a running or queued turn: "signalled" — the running handler records its end;
   * "done" — it was queued and never ran, so nothing else will record it; "gone" — it had ended.
   */
  cancel: (invocationId: string) => Promise<"signalled" | "done" | "gone">;
  /** Completes a durable promise a turn waits on (an approval decision). Idempotent. */
  resolveAwakeable: (id: string, payload: unknown) => Promise<void>;
  /** (Re)starts an agent's schedule timer chain: on activation and at start-up. Idempotent. */
  startScheduler: (agentId: string) => Promise<void>;
  /** Fires one schedule now (hand dispatch) and answers with its task session. */
  fireSchedule: (agentId: string, name: string) => Promise<FireScheduleOutcome>;
  /** Wakes reminder `reminderId` after `delayMs` (a durable timer). Idempotent per reminder and time. */
  scheduleReminder: (reminderId: string, delayMs: number) => Promise<void>;
  /** Runs one tool call in the worker's sandboxes and answers with its outcome. */
  callTool: (request: DirectCallRequest) => Promise<DirectCallOutcome>;
};
