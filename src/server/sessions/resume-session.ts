// POST /<slug>/v1/session/:id/resume: the session's owner takes over the conversation from
// another client (a second tab, a phone). It rotates the continuation token and returns the new
// one, so whatever client held the old token gets 409 stale_continuation_token on its next send:
// at most one client continues a session at a time, and only its owner can hand it over.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import { AppError } from "@/server/errors";
import { newContinuationToken } from "./continuation-token";
import { getOwnedSession } from "./get-owned-session";

export async function resumeSession(options: {
  db: PrismaClient;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<{ ok: true; sessionId: string; continuationToken: string }> {
  const { db, agentId, sessionId, principal } = options;
  const session = await getOwnedSession({ db, agentId, sessionId, principal });
  if (session.mode === "task") throw new AppError("task_session", "task sessions do not take follow-ups");
  const next = newContinuationToken();
  await db.session.update({
    where: { id: sessionId },
    data: { continuationTokenHash: next.hash },
    select: { id: true },
  });
  return { ok: true, sessionId, continuationToken: next.token };
}
