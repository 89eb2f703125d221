// POST /<slug>/v1/tools/:name and /<slug>/v1/session/:id/tools/:name: a tool call with no model
// turn. Session-bound calls follow the session lock (docs/api.md, "Sessions"): a write while a turn
// runs is 409 session_busy; a read runs alongside. The call itself runs in the worker.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { isOwner, type Caller } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import type { DirectCallBody } from "./schema";

type Agent = { id: string; slug: string; teamId: string; activeVersionId: string | null };

export async function callTool(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agent: Agent;
  caller: Caller;
  toolName: string;
  body: DirectCallBody;
  sessionId?: string;
}): Promise<{ ok: true; output: unknown; isError: boolean; stubbed?: true }> {
  const { db, runtime, agent, caller, toolName, body, sessionId } = options;
  let versionId = agent.activeVersionId;
  let mayApprove = caller.can("approvals:write", agent.slug, agent.teamId);
  if (sessionId) {
    const session = await db.session.findFirst({
      where: { id: sessionId, agentId: agent.id },
      select: { ownerKind: true, ownerId: true, mode: true, agentVersionId: true, runningTurnId: true },
    });
    if (!session) throw new AppError("not_found", `no session ${sessionId}`);
    if (!isOwner(caller.principal, session)) throw new AppError("forbidden", "this session belongs to someone else");
    // A session runs on the version it pinned; its owner may approve calls in it.
    versionId = session.agentVersionId;
    mayApprove = true;
    const effect = await toolEffect(db, versionId, toolName);
    if (effect === "write" && session.runningTurnId)
      throw new AppError(
        "session_busy",
        `a turn is running in ${sessionId}; write tools wait for it to end (reads run alongside)`,
      );
  }
  if (!versionId) throw new AppError("conflict", `agent '${agent.slug}' has no active version; upload one first`);
  const outcome = await runtime.callTool({
    agentId: agent.id,
    versionId,
    toolName,
    input: body.input ?? {},
    caller: caller.principal,
    mayApprove,
    sessionId,
  });
  if (!outcome.ok) throw AppError.fromBody(outcome);
  return outcome;
}

async function toolEffect(db: PrismaClient, versionId: string, toolName: string): Promise<"read" | "write"> {
  const version = await db.agentVersion.findUniqueOrThrow({ where: { id: versionId }, select: { manifest: true } });
  const tool = (version.manifest as AgentManifest | null)?.tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new AppError("not_found", `the agent has no tool named ${toolName}`);
  return tool.effect;
}
