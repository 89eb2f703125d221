// Runs one direct tool call in the agent version's sandbox, in the worker (agent code never runs
// in web). The web has checked who may call; here the tool's own rules apply: input validated by
// its schema, a needsApproval tool (or one whose function says so) only for a caller who may
// approve it — it then runs with ctx.approvedBy = that caller — and a write in a dry-run session
// is stubbed. A direct call is not a turn: it records nothing in the session's log.
import crypto from "node:crypto";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { runTool } from "@/agents/runtime/run-tool";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { SessionInfo } from "@/agents/sandbox/protocol";
import { ensureWorkspaceDir } from "@/agents/runtime/workspace-owner";
import { stateRoot, versionSandboxSpec, workspaceDir } from "@/server/agents/storage";
import { AppError } from "@/server/errors";
import type { DirectCallOutcome, DirectCallRequest } from "./schema";

export async function runDirectCall(options: {
  db: PrismaClient;
  dataDir: string;
  sandboxes: SandboxPool;
  request: DirectCallRequest;
}): Promise<DirectCallOutcome> {
  const { db, dataDir, sandboxes, request } = options;
  // Every failure here is an answer (an AppError's wire form), never a throw: Restate would retry
  // a throw without end.
  const version = await db.agentVersion.findUnique({
    where: { id: request.versionId },
    select: { manifest: true, bundlePath: true },
  });
  const manifest = version?.manifest as AgentManifest | null | undefined;
  const tool = manifest?.tools.find((candidate) => candidate.name === request.toolName);
  if (!tool || !version?.bundlePath)
    return new AppError("not_found", `the agent has no tool named ${request.toolName}`).toBody();
  const session = await sessionInfo(db, request);
  if (!session) return new AppError("not_found", `no session ${request.sessionId}`).toBody();
  // A write in a dry-run session: the tool's own stand-in (dryRunResult) when it has one.
  const isStandIn = session.dryRun && tool.effect === "write" && tool.dryRunResult !== undefined;
  if (session.dryRun && tool.effect === "write" && !isStandIn)
    return {
      ok: true,
      output: `dry run: ${tool.name} was not run (write tools are stubbed in dry-run sessions)`,
      isError: false,
      stubbed: true,
    };
  const sandbox = sandboxes.forVersion(
    versionSandboxSpec(dataDir, {
      agentId: request.agentId,
      versionId: request.versionId,
      bundlePath: path.join(dataDir, version.bundlePath),
    }),
  );
  const context = {
    toolCallId: `direct_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`,
    session,
    // Sessionless calls share one scratch workspace per agent.
    workspaceDir: workspaceDir(dataDir, request.agentId, request.sessionId ?? "_direct"),
    stateRoot: stateRoot(dataDir, request.agentId),
  };
  ensureWorkspaceDir(context.workspaceDir);
  let needsApproval = tool.needsApproval === true;
  if (tool.needsApproval === "dynamic" && !isStandIn) {
    needsApproval = await sandbox.call("needsApproval", { file: tool.file, input: request.input, context }).then(
      (answer) => answer.needsApproval,
      () => true,
    );
  }
  // A stand-in changes nothing: it needs no approval.
  if (isStandIn) needsApproval = false;
  if (needsApproval && !request.mayApprove) {
    return new AppError(
      "forbidden",
      `${tool.name} needs approval, and this caller may not approve it; call it from a turn so that it parks for a decision`,
    ).toBody();
  }
  const hostContext = {
    agentId: request.agentId,
    versionId: request.versionId,
    bundlePath: path.join(dataDir, version.bundlePath),
    sessionId: request.sessionId,
    principal: request.caller,
  };
  const result = await runTool({
    sandbox,
    tool,
    input: request.input,
    context: { ...context, ...(needsApproval ? { approvedBy: request.caller } : {}) },
    hostContext,
    isDryRun: isStandIn,
  });
  const stubbed = isStandIn ? { stubbed: true as const } : {};
  if (result.ok) return { ok: true, output: result.output ?? null, isError: false, ...stubbed };
  if (result.invalidInput) return new AppError("invalid_input", result.error).toBody();
  return { ok: true, output: result.error, isError: true, ...stubbed };
}

async function sessionInfo(db: PrismaClient, request: DirectCallRequest): Promise<SessionInfo | undefined> {
  if (!request.sessionId)
    return { id: "direct", channel: "http", mode: "task", auth: request.caller, purpose: "live", dryRun: false };
  const session = await db.session.findUnique({
    where: { id: request.sessionId },
    select: {
      id: true,
      channelId: true,
      mode: true,
      ownerKind: true,
      ownerId: true,
      purpose: true,
      title: true,
      dryRun: true,
    },
  });
  if (!session) return undefined;
  return {
    id: session.id,
    channel: session.channelId,
    mode: session.mode,
    auth: { kind: session.ownerKind, id: session.ownerId },
    purpose: session.purpose,
    ...(session.title ? { title: session.title } : {}),
    dryRun: session.dryRun,
  };
}
