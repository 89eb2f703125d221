// The program inside a sandbox process (bundled together with the agent's modules). It answers
// the platform's RPC calls over IPC; a thrown error in agent code becomes an error result and
// never takes the process down. This file runs ONLY in the sandbox.
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { parseToolInput, toolJsonSchemas } from "@/agents/sdk/tools";
import { ToolInputError } from "@/agents/sdk/tool-schemas";
import { toJsonSafe } from "./json-safe";
import { routeEgress } from "./egress-client";
import { hostCall, hostServices, sessionServices, settleHostReply } from "./host-calls";
import { runResultContract } from "./run-result";
import { flushOtel, otelScoped, registerOtelApi } from "./otel-api";
import type {
  ChannelEventRequest,
  ModuleReport,
  PackHandlerOutcome,
  PackHandlerRequest,
  RoutePart,
  RouteRequest,
  SandboxPartial,
  SandboxRequest,
  SandboxResponse,
  ToolCallContext,
  ToolRunResult,
} from "./protocol";
import { answerRoute } from "./run-route";
import { runEvalCase, type EvalCaseRequest } from "./run-eval";
import { artifactsApi } from "./artifacts-api";
import { captureConsole, inCall, logCallError } from "./console-capture";
import { registerDecide } from "./decide-api";

type ModuleLoaders = Record<string, () => Promise<Record<string, unknown>>>;
type AnyRecord = Record<string, unknown>;

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The agent's MCP connections, named by their files (mcp-connections/, connections/, host-connections/). */
function connectionNames(modules: ModuleLoaders): string[] {
  const names = Object.keys(modules).flatMap((file) => {
    const match = /^(?:[^/]+\/)?(?:mcp-connections|connections|host-connections)\/([^/]+)\.(?:ts|mts|js|mjs)$/.exec(
      file,
    );
    return match ? [match[1]!] : [];
  });
  return [...new Set(names)].sort();
}

async function defaultExport(modules: ModuleLoaders, file: string): Promise<unknown> {
  const load = modules[file];
  if (!load) throw new Error(`no module ${file} in this bundle`);
  const loaded = await load();
  return "default" in loaded ? loaded.default : undefined;
}

/** A prebuilt channel's event handlers (githubChannel), each run by runPackHandler. */
const packHandlers = ["onPullRequest", "onIssue", "onComment"] as const;

function summarize(value: unknown): unknown {
  // Handlers are functions, which JSON drops: keep the event names they listen to.
  if (descriptorKindOf(value) === "hook") return { events: Object.keys((value as { events?: object }).events ?? {}) };
  if (descriptorKindOf(value) === "channel") {
    const channel = value as { events?: object; onStart?: unknown; pack?: unknown } & AnyRecord;
    const events = Object.keys(channel.events ?? {});
    // The platform answers a pack's events without a sandbox when no handler of its own is defined.
    const handlers = packHandlers.filter((name) => typeof channel[name] === "function");
    return {
      ...(toJsonSafe(value) as object),
      events,
      hasOnStart: typeof channel.onStart === "function",
      ...(channel.pack === "github" ? { handlers } : {}),
    };
  }
  if (descriptorKindOf(value) === "tool") {
    const tool = value as AnyRecord;
    const schemas = toolJsonSchemas(value as never);
    return {
      description: tool.description,
      effect: tool.effect,
      execution: tool.execution,
      needsApproval: typeof tool.needsApproval === "function" ? "dynamic" : Boolean(tool.needsApproval),
      timeoutMs: tool.timeoutMs,
      ...(tool.dryRunResult === undefined
        ? {}
        : { dryRunResult: typeof tool.dryRunResult === "function" ? "function" : "value" }),
      inputSchema: schemas.input,
      outputSchema: schemas.output,
    };
  }
  return toJsonSafe(value);
}

async function describeModule(modules: ModuleLoaders, file: string): Promise<ModuleReport> {
  try {
    const value = await defaultExport(modules, file);
    if (typeof value === "string") return { file, kind: "string", summary: value };
    if (Array.isArray(value)) {
      return {
        file,
        kind: "array",
        items: value.map((item) => ({ kind: descriptorKindOf(item), summary: summarize(item) })),
      };
    }
    return { file, kind: descriptorKindOf(value), summary: summarize(value) };
  } catch (error) {
    const stack = error instanceof Error ? error.stack?.slice(0, 4000) : undefined;
    return { file, error: errorText(error), ...(stack ? { errorStack: stack } : {}) };
  }
}

async function runTool(
  modules: ModuleLoaders,
  params: { file: string; input: unknown; context: ToolCallContext; isDryRun?: boolean },
  requestId: number,
): Promise<ToolRunResult> {
  try {
    const tool = await defaultExport(modules, params.file);
    if (descriptorKindOf(tool) !== "tool")
      return { ok: false, error: `${params.file} does not export defineTool(...)` };
    const { execute: run, dryRunResult } = tool as {
      execute: (input: unknown, ctx: unknown) => unknown;
      dryRunResult?: unknown;
    };
    // A dry-run session's write: the tool's stand-in answers (a value, or its function's).
    const execute = params.isDryRun
      ? typeof dryRunResult === "function"
        ? (dryRunResult as (input: unknown, ctx: unknown) => unknown)
        : () => dryRunResult
      : run;
    const input = parseToolInput(tool as never, params.input);
    const background = backgroundWork();
    const ctx = {
      ...params.context,
      host: hostServices(requestId, connectionNames(modules)),
      ...sessionServices(requestId),
      waitUntil: background.waitUntil,
      artifacts: artifactsApi(requestId, modules, { sessionId: sessionOf(params.context.session.id) }),
    };
    const output = await execute(input, Object.freeze(ctx));
    await background.settled();
    return { ok: true, output: toJsonSafe(output) ?? null };
  } catch (error) {
    // A bad input is the model's, told in the result; anything else is the tool's own error.
    if (!(error instanceof ToolInputError)) logCallError(error, params.file);
    return { ok: false, error: errorText(error), ...(error instanceof ToolInputError ? { invalidInput: true } : {}) };
  }
}

/** ctx.waitUntil of a tool or schedule: the call answers once the work is done too, so the work
 * keeps its host services; a failure is logged, not the call's. */
function backgroundWork() {
  const work: Promise<unknown>[] = [];
  return {
    waitUntil: (promise: Promise<unknown>) =>
      void work.push(Promise.resolve(promise).catch((error) => console.error("waitUntil:", errorText(error)))),
    settled: () => Promise.all(work),
  };
}

async function needsApproval(
  modules: ModuleLoaders,
  params: { file: string; input: unknown; context: ToolCallContext },
) {
  try {
    const tool = (await defaultExport(modules, params.file)) as { needsApproval?: unknown };
    const rule = tool.needsApproval;
    if (typeof rule !== "function") return { needsApproval: Boolean(rule) };
    const input = parseToolInput(tool as never, params.input);
    return { needsApproval: Boolean(await rule(input, Object.freeze({ ...params.context }))) };
  } catch (error) {
    return { needsApproval: true, error: errorText(error) };
  }
}

async function runSchedule(modules: ModuleLoaders, params: { file: string; appAuth: unknown }, requestId: number) {
  try {
    const schedule = (await defaultExport(modules, params.file)) as { run?: (ctx: unknown) => unknown };
    if (descriptorKindOf(schedule) !== "schedule" || typeof schedule.run !== "function")
      return { ok: false as const, error: `${params.file} has no run()` };
    const background = backgroundWork();
    await schedule.run(
      Object.freeze({
        appAuth: params.appAuth,
        host: hostServices(requestId, connectionNames(modules)),
        artifacts: artifactsApi(requestId, modules, {}),
        receive: async (channel: unknown, input: unknown) => {
          const name =
            typeof channel === "string"
              ? channel
              : ((channel as { id?: string; name?: string })?.id ?? (channel as { name?: string })?.name);
          await hostCall(requestId, "receive", { channel: name, input });
        },
        callTool: (name: string, input?: unknown) => hostCall(requestId, "callTool", { name, input: input ?? {} }),
        waitUntil: background.waitUntil,
      }),
    );
    await background.settled();
    return { ok: true as const };
  } catch (error) {
    logCallError(error, params.file);
    return { ok: false as const, error: errorText(error) };
  }
}

async function runHook(
  modules: ModuleLoaders,
  params: { file: string; event: { type: string }; context: object },
  requestId: number,
) {
  try {
    const hook = (await defaultExport(modules, params.file)) as {
      events?: Record<string, (e: unknown, c: unknown) => unknown>;
    };
    const handlers = [hook.events?.[params.event.type], hook.events?.["*"]].filter((h) => typeof h === "function");
    const ctx = Object.freeze({
      ...params.context,
      host: hostServices(requestId, connectionNames(modules)),
      artifacts: artifactsApi(requestId, modules, eventScope(params.context, params.event)),
    });
    for (const handler of handlers) await handler!(params.event, ctx);
    return { ok: true as const, handled: handlers.length };
  } catch (error) {
    logCallError(error, `${params.file} on ${params.event.type}`);
    return { ok: false as const, error: errorText(error) };
  }
}

async function runRoute(modules: ModuleLoaders, params: RouteRequest, requestId: number) {
  const channel = (await defaultExport(modules, params.file)) as Parameters<typeof answerRoute>[0];
  const background = backgroundWork();
  const { send, getSession } = sessionServices(requestId);
  const answer = await answerRoute(channel, params, {
    send: (message: string, options?: object) => send(params.channelId, message, options),
    getSession: (id: string) => getSession(params.channelId, id),
    waitUntil: background.waitUntil,
    host: hostServices(requestId, connectionNames(modules)),
    artifacts: artifactsApi(requestId, modules, {}),
  });
  // The response goes out as it comes; the call ends when the work it left behind is done.
  const part = (result: RoutePart) => process.send?.({ partial: requestId, result } satisfies SandboxPartial);
  const head = { status: answer.status, headers: answer.headers };
  part({ head });
  try {
    if ("body" in answer) part({ chunk: answer.body });
    else if (answer.stream) {
      const reader = answer.stream.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read())
        part({ chunk: Buffer.from(read.value).toString("base64") });
    }
  } finally {
    part({ end: true });
  }
  await background.settled();
  return head;
}

/** A channel's `events` handler for one of its sessions' events, with the session's channel
 * state; answers the state as the handler left it, and a new conversation key if it set one. */
async function runChannelEvent(modules: ModuleLoaders, params: ChannelEventRequest, requestId: number) {
  try {
    const channel = (await defaultExport(modules, params.file)) as {
      events?: Record<string, (e: unknown, c: unknown) => unknown>;
    };
    const handlers = [channel.events?.[params.event.type], channel.events?.["*"]].filter(
      (h) => typeof h === "function",
    );
    let continuationToken: string | undefined;
    const ctx = {
      ...params.context,
      state: structuredClone(params.state),
      setContinuationToken: (token: string) => {
        if (typeof token !== "string" || token.length === 0)
          throw new Error("setContinuationToken: give a non-empty string");
        continuationToken = token;
      },
      host: hostServices(requestId, connectionNames(modules)),
      artifacts: artifactsApi(requestId, modules, eventScope(params.context, params.event)),
    };
    for (const handler of handlers) await handler!(params.event, ctx);
    const state = toJsonSafe(ctx.state);
    return {
      ok: true as const,
      handled: handlers.length,
      state: state ?? {},
      ...(continuationToken ? { continuationToken } : {}),
    };
  } catch (error) {
    logCallError(error, `${params.file} on ${params.event.type}`);
    return { ok: false as const, error: errorText(error) };
  }
}

/** A pack channel's handler (githubChannel's onPullRequest …) for one event: its decision as JSON,
 * or that the channel has no such handler. */
async function runPackHandler(
  modules: ModuleLoaders,
  params: PackHandlerRequest,
  requestId: number,
): Promise<PackHandlerOutcome> {
  try {
    if (!(packHandlers as readonly string[]).includes(params.handler))
      return { ok: false, error: `no pack handler ${params.handler}` };
    const channel = (await defaultExport(modules, params.file)) as AnyRecord | undefined;
    const handler = channel?.[params.handler];
    if (typeof handler !== "function") return { ok: true, isDefined: false };
    const ctx = Object.freeze({ ...params.context, host: hostServices(requestId, connectionNames(modules)) });
    const decision = await (handler as (ctx: unknown, payload: unknown) => unknown)(ctx, Object.freeze(params.payload));
    return { ok: true, isDefined: true, decision: toJsonSafe(decision) ?? null };
  } catch (error) {
    logCallError(error, `${params.file} ${params.handler}`);
    return { ok: false, error: errorText(error) };
  }
}

/** A real session id: tools called outside a session see a stand-in ("direct", "schedule"). */
function sessionOf(id: string): string | undefined {
  return id.startsWith("ses_") ? id : undefined;
}

/** A hook's or channel handler's facade fills in the event's session and turn. */
function eventScope(context: object, event: { type: string; turnId?: string | null }) {
  const session = (context as { session?: { id?: string } }).session;
  return { sessionId: session?.id, ...(event.turnId ? { turnId: event.turnId } : {}) };
}

/** The model's tag_artifact, for the session and turn it runs in. */
function tagForModel(
  modules: ModuleLoaders,
  params: { input: unknown; sessionId: string; turnId?: string },
  requestId: number,
) {
  const input = (params.input ?? {}) as { kind?: string; key: string; title?: string; data?: unknown };
  return artifactsApi(requestId, modules, { sessionId: params.sessionId, turnId: params.turnId }).tag(input);
}

async function runResult(modules: ModuleLoaders, params: { file: string; text: string; session: unknown }) {
  const result = await defaultExport(modules, params.file);
  if (descriptorKindOf(result) !== "result")
    return { outcome: "failed" as const, message: `${params.file} does not export defineResult(...)` };
  return runResultContract(result as never, params);
}

/** The platform's settings for this process, from its command line (--agentfold-<name>=…). */
function launchSetting(name: string): string | undefined {
  const prefix = `--agentfold-${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

/** The agent's secrets as process.env: names sent before and not now are removed. */
function applySecrets(secrets: Record<string, string>, applied: Set<string>): void {
  for (const name of applied) if (!(name in secrets)) delete process.env[name];
  applied.clear();
  for (const [name, value] of Object.entries(secrets)) (process.env[name] = value), applied.add(name);
}

export async function startSandbox(modules: ModuleLoaders): Promise<void> {
  // What agent code recorded for OpenTelemetry goes out just before the call's answer.
  const send = (response: SandboxResponse) => (flushOtel(response.id), process.send?.(response));
  registerOtelApi((requestId, batch) => hostCall(requestId, "otel.record", batch));
  registerDecide();
  const socketPath = launchSetting("egress");
  const undiciPath = launchSetting("undici");
  if (socketPath && undiciPath) await routeEgress({ socketPath, undiciPath });
  const secretNames = new Set<string>();
  const serve = async (request: SandboxRequest) => {
    if (settleHostReply(request)) return;
    if (request.env) applySecrets(request.env, secretNames);
    try {
      const params = request.params as never;
      const result =
        request.method === "describe"
          ? await Promise.all(Object.keys(modules).map((file) => describeModule(modules, file)))
          : request.method === "runTool"
            ? await runTool(modules, params, request.id)
            : request.method === "needsApproval"
              ? await needsApproval(modules, params)
              : request.method === "runHook"
                ? await runHook(modules, params, request.id)
                : request.method === "runResult"
                  ? await runResult(modules, params)
                  : request.method === "runSchedule"
                    ? await runSchedule(modules, params, request.id)
                    : request.method === "runRoute"
                      ? await runRoute(modules, params, request.id)
                      : request.method === "runChannelEvent"
                        ? await runChannelEvent(modules, params, request.id)
                        : request.method === "runPackHandler"
                          ? await runPackHandler(modules, params, request.id)
                          : request.method === "runEval"
                            ? await runEvalCase(
                                () => defaultExport(modules, (params as EvalCaseRequest).file),
                                params,
                                request.id,
                              )
                            : request.method === "tagArtifact"
                              ? await tagForModel(modules, params, request.id)
                              : undefined;
      if (result === undefined) send({ id: request.id, ok: false, error: `unknown method ${request.method}` });
      else send({ id: request.id, ok: true, result });
    } catch (error) {
      logCallError(error, request.method === "runRoute" ? (request.params as RouteRequest).file : request.method);
      send({ id: request.id, ok: false, error: errorText(error) });
    }
  };
  // Each call runs with its request id in the active context (otel-api.ts).
  // What agent code prints while serving a call is that call's log (console-capture.ts).
  captureConsole();
  process.on(
    "message",
    otelScoped((request: SandboxRequest) => inCall(request.id, () => serve(request))),
  );
  // Background work in agent code that rejects must not end the process: report and go on.
  process.on("unhandledRejection", (reason) => console.error("unhandled rejection in agent code:", errorText(reason)));
  process.on("uncaughtException", (error) => console.error("uncaught exception in agent code:", errorText(error)));
  // The platform side went away: nothing left to serve.
  process.on("disconnect", () => process.exit(0));
  send({ id: 0, ok: true, result: "ready" });
}
