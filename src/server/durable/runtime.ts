// Everything durable goes through this interface, so another engine can be added behind it.
import type { DirectCallOutcome, DirectCallRequest } from "@/server/tools/schema";

export type TurnRequest = {
  sessionId: string;
  turnId: string;
  message: string;
  /** Files to write into the session workspace before the turn (paths already checked). */
  workspaceFiles?: Record<string, string>;
};

export type DurableRuntime = {
  /** The engine itself answers its health check. */
  isHealthy: () => Promise<boolean>;
  /** Makes a worker endpoint known to the engine. Idempotent. */
  registerWorker: (workerUrl: string) => Promise<void>;
  /** Queues a turn on the session's durable object (one running turn per session). */
  sendTurn: (turn: TurnRequest) => Promise<{ invocationId: string }>;
  /** Cancels a running or queued turn. */
  cancel: (invocationId: string) => Promise<void>;
  /** Completes a durable promise a turn waits on (an approval decision). Idempotent. */
  resolveAwakeable: (id: string, payload: unknown) => Promise<void>;
  /** Runs one tool call in the worker's sandboxes and answers with its outcome. */
  callTool: (request: DirectCallRequest) => Promise<DirectCallOutcome>;
};
