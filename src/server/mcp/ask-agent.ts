// One message to an agent, answered when its turn ends: MCP `ask` (./mcp-server.ts) and, from
// the worker, a peer agent's `<connection>__ask`. Without a session id it starts a chat session
// as POST /<slug>/v1/session does; with one it follows up there with preempt admission, for the
// session's owner only. Dependencies come in: nothing here reads the web's singletons.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { findPendingApprovals } from "@/server/approvals/find-pending-approvals";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import type { EventHub } from "@/server/events/event-hub";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { getOwnedSession } from "@/server/sessions/get-owned-session";
import { startSession, type AgentRef } from "@/server/sessions/start-session";
import { stopSession } from "@/server/sessions/stop-session";
import type { AskResult } from "./ask-agent-schema";
import { waitForAskedTurn } from "./ask-agent-wait";

export type AskAgentDeps = {
  db: PrismaClient;
  runtime: DurableRuntime;
  /** Wakes the wait when the session has new events (the web's event hub); without it, the log is polled. */
  hub?: Pick<EventHub, "subscribe">;
};

export type AskAgentOptions = {
  agent: AgentRef;
  /** Who asks: the new session's owner, or the owner of `sessionId`. */
  principal: Principal;
  message: string;
  sessionId?: string;
  /** Aborting stops the turn (as POST …/session/:id/stop does) and answers `cancelled`. */
  signal?: AbortSignal;
  /** Each event of the turn, in log order. */
  onProgress?: (event: SessionEvent) => void;
  /** A peer agent's ask: the asking session, recorded with a new session (peer-agents.ts). */
  askedFrom?: { sessionId: string; agentId: string };
};

/**
 * Resolves when the turn completes, fails, is cancelled, or parks on approvals
 * (`waiting_approval`, with the parked calls: a person decides, and `check` tells the outcome).
 * Refusals (no such session, another's session, a task session, no active version) throw AppError.
 */
export async function askAgent(deps: AskAgentDeps, options: AskAgentOptions): Promise<AskResult> {
  const { db, runtime } = deps;
  const { agent, principal, message, signal } = options;
  if (signal?.aborted) throw new AppError("bad_request", "the ask was cancelled before it was sent");
  let sessionId = options.sessionId;
  let fromIndex = 0;
  let deliveryId: string;
  if (sessionId) {
    fromIndex = (await getOwnedSession({ db, agentId: agent.id, sessionId, principal })).nextIndex;
    // No continuation token: the owner is checked instead, as /resume does; the token still
    // rotates, so an HTTP client holding the old one must /resume (docs/decisions.md, "MCP").
    ({ deliveryId } = await followUpSession({
      db,
      runtime,
      agentId: agent.id,
      sessionId,
      principal,
      body: { message, continuationToken: "", admission: "preempt" },
      isByConversationKey: true,
    }));
  } else {
    ({ sessionId, deliveryId } = await startSession({
      db,
      runtime,
      agent,
      principal,
      body: { message },
      baseUrl: "",
      askedFrom: options.askedFrom,
    }));
  }
  const id = sessionId;
  const outcome = await waitForAskedTurn({
    db,
    hub: deps.hub,
    sessionId: id,
    deliveryId,
    fromIndex,
    signal,
    stop: () => stopSession({ db, runtime, agentId: agent.id, sessionId: id, principal }),
    onProgress: options.onProgress,
  });
  if (outcome.status !== "waiting_approval") return { sessionId: id, ...outcome };
  return { sessionId: id, ...outcome, pendingApprovals: await findPendingApprovals(db, id) };
}
