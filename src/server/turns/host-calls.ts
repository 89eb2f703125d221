// The platform's side of host calls from agent code (src/agents/sandbox/host-calls.ts): each runs
// in the context of the platform request it belongs to — a tool call's session, a hook's event, a
// schedule's run — never in one the sandbox names. Agent code reaches kv, files, reminders and
// sessions (send / getSession / waitForCompletion) and decide (one call of the agent's model); a
// schedule's run also reaches receive (start work on the built-in HTTP channel) and callTool.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { runTool } from "@/agents/runtime/run-tool";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { OtelBatch } from "@/agents/sandbox/otel-batch";
import type { HostCallMethod } from "@/agents/sandbox/protocol";
import type { Principal } from "@/agents/sdk/types";
import { ensureWorkspaceDir } from "@/agents/runtime/workspace-owner";
import { stateRoot, versionSandboxSpec, workspaceDir } from "@/server/agents/storage";
import { pgTransaction } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import type { HostContext } from "./host-context";
import { cancelReminder, createReminder, listReminders, type ReminderInput } from "@/server/reminders/reminders";
import { queueTurn } from "@/server/sessions/queue-turn";
import { newDeliveryId, newSessionId, newTurnId } from "@/server/sessions/session-urls";
import { recordSessionStart } from "@/server/sessions/start-session";
import { listArtifacts } from "@/server/artifacts/list-artifacts";
import { tagArtifact } from "@/server/artifacts/tag-artifact";
import { createFilesStore } from "@/server/host-state/files";
import { createKvStore } from "@/server/host-state/kv";
import { recordAgentTelemetry } from "@/server/telemetry/agent-telemetry";
import type { Telemetry } from "@/server/telemetry/telemetry";
import type { ConnectionPool } from "@/server/mcp/connection-pool";
import { connectionConfig } from "@/server/mcp/resolve-connection";
import { connectionTarget, mcpToolTimeoutMs } from "./connection-tools";
import { filesCall, kvCall } from "./host-state-calls";
import type { PackHostServices } from "@/server/agent-channels/pack-types";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import { evalJudge, evalSend } from "@/server/evals/eval-host-calls";
import { decideForAgent } from "./decide-host-call";
import { slackHostCall } from "@/server/slack/slack-host-call";
import { githubHostCall } from "@/server/github/github-host-call";
import { type AgentCaller, getSessionForAgent, sendFromAgent, waitForTurn } from "@/server/sessions/send-from-agent";

export type { HostContext } from "./host-context";

type Deps = {
  db: PrismaClient;
  dataDir: string;
  runtime?: DurableRuntime;
  sandboxes: () => SandboxPool;
  /** Where agent code's metrics and spans go; absent: nowhere (the sandbox stops recording). */
  telemetry?: Telemetry;
  /** The process's MCP clients (ctx.host.mcp); absent: calls to it fail, saying so. */
  connections?: () => ConnectionPool;
  /** ctx.host.slack and ctx.host.github: the agent's own Slack and GitHub credentials, which the
   * platform reads (src/server/secrets/read-pack-secrets.ts) and uses on agent code's behalf. */
  packs?: PackHostServices;
  /** An eval case's `t.judge`: the grading model and the providers' settings (src/server/evals). */
  grading?: { models: ModelProviderSettings; judgeModel: string };
  /** `decide`: the providers' settings and the default model (the worker's); absent: decide fails. */
  decisions?: { models: ModelProviderSettings; defaultModel: string };
};

export function hostCallHandler(deps: Deps) {
  return async ({
    method,
    params,
    context,
    signal,
  }: {
    method: HostCallMethod;
    params: unknown;
    context: unknown;
    signal?: AbortSignal;
  }): Promise<unknown> => {
    const host = context as HostContext | undefined;
    if (!host) throw new Error(`${method} is not available in this call`);
    switch (method) {
      case "reminders.create":
        return createReminder({
          db: deps.db,
          runtime: needRuntime(deps),
          sessionId: needSession(host),
          input: params as ReminderInput,
        });
      case "reminders.list":
        return listReminders(deps.db, needSession(host));
      case "reminders.cancel":
        return cancelReminder(deps.db, needSession(host), String((params as { id?: unknown }).id));
      case "callTool":
        return callToolFromHost(deps, host, params as { name: string; input: unknown });
      case "receive":
        return receive(
          deps,
          host,
          params as { channel?: string; input: { message: string; auth: Principal; target?: unknown } },
        );
      case "kv.get":
      case "kv.entry":
      case "kv.put":
      case "kv.delete":
      case "kv.list":
        return kvCall(createKvStore(deps.db, host.agentId), method, params);
      case "files.read":
      case "files.write":
      case "files.append":
      case "files.list":
      case "files.delete":
        return filesCall(
          createFilesStore(deps.db, { agentId: host.agentId, sessionId: host.sessionId }),
          method,
          params,
        );
      case "session.send":
        return sendFromAgent({ db: deps.db, runtime: needRuntime(deps), caller: await callerOf(deps, host), params });
      case "session.get":
        return getSessionForAgent(deps.db, await callerOf(deps, host), params);
      case "artifacts.tag":
        return tagArtifact(deps.db, host.agentId, params);
      case "artifacts.list":
        return listArtifacts(deps.db, host.agentId, params);
      case "session.wait":
        return waitForTurn({ db: deps.db, caller: await callerOf(deps, host), params, signal });
      case "mcp.listTools":
      case "mcp.callTool":
        return mcpCall(deps, host, method, params as { connection?: unknown; tool?: unknown; args?: unknown }, signal);
      case "eval.send":
        return evalSend({ ...deps, ...needGrading(deps) }, host, params, signal);
      case "eval.judge":
        return evalJudge({ ...deps, ...needGrading(deps) }, host, params, signal);
      case "decide":
        if (!deps.decisions)
          throw new Error(
            "decide is not available in this process: it runs in tools, hooks, schedules and channel routes",
          );
        return decideForAgent({ db: deps.db, telemetry: deps.telemetry, ...deps.decisions }, host, params, signal);
      case "slack.call":
        return slackHostCall(deps.db, deps.packs, host, params);
      case "github.request":
        return githubHostCall(deps.db, deps.packs, host, params, signal);
      case "otel.record":
        // Recorded before anything is awaited: the call's span is still open (otel-api.ts).
        return recordAgentTelemetry(
          deps.telemetry,
          { agentId: host.agentId, sessionId: host.sessionId, parent: host.trace },
          params as OtelBatch,
        );
    }
  };
}

/** ctx.host.mcp: any of the version's connections, host-connections included; tools are listed
 * as the server describes them, and a call answers the server's result as it is. */
async function mcpCall(
  deps: Deps,
  host: HostContext,
  method: "mcp.listTools" | "mcp.callTool",
  params: { connection?: unknown; tool?: unknown; args?: unknown },
  signal?: AbortSignal,
) {
  if (!deps.connections) throw new Error("ctx.host.mcp is not available in this process");
  const version = await deps.db.agentVersion.findUnique({ where: { id: host.versionId }, select: { manifest: true } });
  const declared = (version?.manifest as AgentManifest | null)?.connections ?? [];
  const connection = declared.find((candidate) => candidate.name === params.connection);
  if (!connection)
    throw new Error(
      `the agent has no MCP connection named ${String(params.connection)}; connections: ${declared.map((c) => c.name).join(", ") || "none"}`,
    );
  if (connectionConfig(connection).form === "agent")
    throw new Error(`${connection.name} is a peer agent: its model asks it through ${connection.name}__ask`);
  const target = connectionTarget(deps.dataDir, host, connection);
  const pool = deps.connections();
  if (method === "mcp.listTools")
    return (await pool.tools(target, signal)).map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
    }));
  if (typeof params.tool !== "string") throw new Error("ctx.host.mcp.callTool: give the tool's name");
  const args = typeof params.args === "object" && params.args !== null ? (params.args as Record<string, unknown>) : {};
  return pool.callTool(target, params.tool, args, { signal, timeoutMs: mcpToolTimeoutMs });
}

/** The agent and principal agent code acts for (ctx.send and friends). */
async function callerOf(deps: Deps, host: HostContext): Promise<AgentCaller> {
  const principal = host.principal ?? host.appAuth;
  if (!principal) throw new Error("sessions can be started only from code that runs for someone");
  const agent = await deps.db.agent.findUnique({ where: { id: host.agentId }, select: { slug: true, teamId: true } });
  if (!agent) throw new Error("the agent is gone");
  return { agentId: host.agentId, slug: agent.slug, teamId: agent.teamId, principal, channelId: host.channelId };
}

function needSession(host: HostContext): string {
  if (!host.sessionId) throw new Error("reminders belong to a session; this code runs outside one");
  return host.sessionId;
}

function needRuntime(deps: Deps): DurableRuntime {
  if (!deps.runtime) throw new Error("reminders are not available on this worker");
  return deps.runtime;
}

/** A schedule's callTool: the tool runs in the same sandbox; the answer is a result envelope. */
async function callToolFromHost(deps: Deps, host: HostContext, params: { name: string; input: unknown }) {
  const version = await deps.db.agentVersion.findUnique({ where: { id: host.versionId }, select: { manifest: true } });
  const tool = (version?.manifest as AgentManifest | null)?.tools.find((candidate) => candidate.name === params.name);
  if (!tool) throw new Error(`the agent has no tool named ${params.name}`);
  if (tool.needsApproval !== false)
    throw new Error(`${params.name} needs approval; a schedule cannot approve its own calls`);
  const sandbox = deps.sandboxes().forVersion(
    versionSandboxSpec(deps.dataDir, {
      agentId: host.agentId,
      versionId: host.versionId,
      bundlePath: host.bundlePath,
    }),
  );
  const auth = host.appAuth ?? { kind: "app", id: "schedule" };
  const scratch = workspaceDir(deps.dataDir, host.agentId, "_schedule");
  ensureWorkspaceDir(scratch);
  const result = await runTool({
    sandbox,
    tool,
    input: params.input,
    context: {
      toolCallId: `host_${Date.now().toString(36)}`,
      session: { id: "schedule", channel: "schedule", mode: "task", auth, purpose: "live", dryRun: false },
      workspaceDir: scratch,
      stateRoot: stateRoot(deps.dataDir, host.agentId),
    },
    hostContext: host,
  });
  const text = result.ok
    ? typeof result.output === "string"
      ? result.output
      : JSON.stringify(result.output)
    : result.error;
  return { content: [{ type: "text", text }], isError: !result.ok };
}

/** receive on the built-in HTTP channel: a new chat session owned by the schedule's principal. */
async function receive(
  deps: Deps,
  host: HostContext,
  params: { channel?: string; input: { message: string; auth: Principal; target?: unknown } },
) {
  if (params.channel !== "http")
    throw new Error(`no channel ${params.channel ?? "(none)"} on this platform yet; use "http"`);
  // Refused rather than dropped: the work would land in a new session, not where the target says.
  if (params.input?.target !== undefined)
    throw new Error(
      'receive: target names a thread of a channel (Slack\'s { channelId, threadTs }); "http" has none, and receive ' +
        'starts a new session there: leave target out (docs/compatibility.md, "A schedule\'s run context")',
    );
  if (!host.appAuth) throw new Error("receive is for schedules");
  // Agent code may only act as the schedule itself: it cannot start sessions in someone's name.
  if (params.input?.auth?.id !== host.appAuth.id) throw new Error("receive: auth must be the schedule's appAuth");
  if (typeof params.input.message !== "string" || !params.input.message) throw new Error("receive: give a message");
  const sessionId = newSessionId();
  const turnId = newTurnId();
  await pgTransaction(deps.db, (client) =>
    recordSessionStart(client, {
      sessionId,
      turnId,
      agentId: host.agentId,
      versionId: host.versionId,
      principal: host.appAuth!,
      channelId: "http",
      mode: "chat",
      continuationHash: null,
      message: params.input.message,
      deliveryId: newDeliveryId(),
    }),
  );
  await queueTurn({
    db: deps.db,
    runtime: needRuntime(deps),
    turn: { sessionId, turnId, message: params.input.message },
    mode: "chat",
  });
  return { sessionId };
}

function needGrading(deps: Deps): NonNullable<Deps["grading"]> {
  if (!deps.grading) throw new Error("evals do not run in this process");
  return deps.grading;
}
