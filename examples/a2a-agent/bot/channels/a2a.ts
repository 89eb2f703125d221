// A2A over this channel (README.md): the agent card at /.well-known/agent-card.json, JSON-RPC at
// the channel's root, and a plain synchronous /invoke. Callers bring the A2A_TOKEN secret as their
// bearer token, or an Agentfold token with channels:invoke; loopback callers need neither.
import { bearerAuth, defineChannel, GET, localDevStrict, POST, type RouteContext } from "agentfold/channels";
import { z } from "zod";
import {
  messageSendParamsSchema,
  type RpcId,
  rpcError,
  rpcErrors,
  rpcRequestSchema,
  rpcResult,
  taskQueryParamsSchema,
  withHistory,
} from "../lib/a2a";
import { agentCard, rpcUrlOf } from "../lib/card";
import { type Outcome, readTask, startTask } from "../lib/tasks";

type Ctx = Pick<RouteContext, "send" | "waitUntil" | "host" | "auth">;

// The platform gives up on a handler after 60 s; a turn still running then answers as "working"
// and finishes in waitUntil, where tasks/get sees it end.
const answerWithinMs = 50_000;

const ownerOf = (auth: Ctx["auth"]) => `${auth.kind}:${auth.id}`;

async function within(outcome: Promise<Outcome>, ms: number): Promise<Outcome | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function messageSend(id: RpcId, params: unknown, ctx: Ctx): Promise<Response> {
  const parsed = messageSendParamsSchema.safeParse(params);
  if (!parsed.success) return rpcError(id, rpcErrors.invalidParams, parsed.error.issues);
  const { message, configuration } = parsed.data;
  if (message.parts.some((part) => part.kind !== "text"))
    return rpcError(id, rpcErrors.contentTypeNotSupported, "only text parts are accepted");
  if (message.taskId !== undefined)
    return rpcError(id, rpcErrors.unsupportedOperation, "a task ends with its turn; continue with the contextId");
  const text = message.parts
    .flatMap((part) => (part.kind === "text" ? [part.text] : []))
    .join("\n")
    .trim();
  if (!text) return rpcError(id, rpcErrors.invalidParams, "the message has no text");
  const started = await startTask({
    kv: ctx.host.kv,
    send: ctx.send,
    owner: ownerOf(ctx.auth),
    text,
    contextId: message.contextId ?? crypto.randomUUID(),
    messageId: message.messageId,
  });
  ctx.waitUntil(started.outcome);
  const settled = configuration?.blocking === false ? undefined : await within(started.outcome, answerWithinMs);
  return rpcResult(id, withHistory(settled?.task ?? started.task, configuration?.historyLength));
}

async function tasksGet(id: RpcId, params: unknown, ctx: Ctx): Promise<Response> {
  const parsed = taskQueryParamsSchema.safeParse(params);
  if (!parsed.success) return rpcError(id, rpcErrors.invalidParams, parsed.error.issues);
  const task = await readTask(ctx.host.kv, parsed.data.id, ownerOf(ctx.auth));
  if (!task) return rpcError(id, rpcErrors.taskNotFound, { id: parsed.data.id });
  return rpcResult(id, withHistory(task, parsed.data.historyLength));
}

const methods: Record<string, (id: RpcId, params: unknown, ctx: Ctx) => Promise<Response>> = {
  "message/send": messageSend,
  "tasks/get": tasksGet,
};

function idOf(payload: unknown): RpcId {
  const id = (payload as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

export default defineChannel({
  auth: [localDevStrict(), bearerAuth("${A2A_TOKEN}")],
  routes: [
    GET("/.well-known/agent-card.json", {
      description: "The A2A agent card, naming this channel's JSON-RPC endpoint",
      handler: (request) => Response.json(agentCard(rpcUrlOf(request))),
    }),
    POST("/", {
      description: "A2A JSON-RPC 2.0: message/send and tasks/get",
      handler: async (request, ctx) => {
        let payload: unknown;
        try {
          payload = JSON.parse(await request.text());
        } catch {
          return rpcError(null, rpcErrors.parseError);
        }
        const call = rpcRequestSchema.safeParse(payload);
        if (!call.success) return rpcError(idOf(payload), rpcErrors.invalidRequest, call.error.issues);
        const { id, method, params } = call.data;
        const run = Object.hasOwn(methods, method) ? methods[method] : undefined;
        if (!run) return rpcError(id, rpcErrors.methodNotFound, { method, served: Object.keys(methods) });
        try {
          return await run(id, params, ctx);
        } catch (error) {
          // The caller gets the code only; the reason goes to the agent's log.
          console.error(`a2a ${method} failed:`, error);
          return rpcError(id, rpcErrors.internalError);
        }
      },
    }),
    POST("/invoke", {
      description: "Send a message and wait for the reply: { message, contextId? } → { sessionId, status, result }",
      bodySchema: z.object({ message: z.string().min(1), contextId: z.string().min(1).max(200).optional() }),
      handler: async (_request, { body, ...ctx }) => {
        const contextId = body.contextId ?? crypto.randomUUID();
        const started = await startTask({
          kv: ctx.host.kv,
          send: ctx.send,
          owner: ownerOf(ctx.auth),
          text: body.message,
          contextId,
          messageId: crypto.randomUUID(),
        });
        ctx.waitUntil(started.outcome);
        const settled = await within(started.outcome, answerWithinMs);
        const task = settled?.task ?? started.task;
        const about = { taskId: task.id, contextId, sessionId: task.metadata.sessionId };
        if (!settled) return Response.json({ ok: false, ...about, status: "working" }, { status: 202 });
        return Response.json({ ok: settled.completion.status === "finished", ...about, ...settled.completion });
      },
    }),
  ],
});
