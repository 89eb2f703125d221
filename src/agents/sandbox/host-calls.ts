// The sandbox's side of host calls: agent code awaits a host service (ctx.host.kv, files,
// reminders, ctx.send, a schedule's receive / callTool), the request goes to the platform over
// IPC tagged with the platform request it belongs to, and the answer comes back here. This file
// runs ONLY in the sandbox.
import { githubApi } from "./github-api";
import { otelServices } from "./otel-api";
import type { HostCall, HostCallMethod, HostReply } from "./protocol";

const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextId = 1;

export function hostCall(requestId: number, method: HostCallMethod, params: unknown): Promise<unknown> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const call: HostCall = { hostCall: id, requestId, method, params };
    process.send?.(call);
  });
}

/** True when the message was a reply to a host call (and has been handled). */
export function settleHostReply(message: unknown): boolean {
  if (typeof message !== "object" || message === null || !("hostReply" in message)) return false;
  const reply = message as HostReply;
  const pending = waiting.get(reply.hostReply);
  if (!pending) return true;
  waiting.delete(reply.hostReply);
  if (reply.ok) pending.resolve(reply.result);
  else pending.reject(Object.assign(new Error(reply.error), reply.code ? { code: reply.code } : {}));
  return true;
}

type FileOptions = { scope?: "session" | "deployment" };
type Found<T> = { found: boolean; value?: T };

/** ctx.host for code running on behalf of platform request `requestId`; `connections` are the
 * names of the agent's MCP connections (mcp- and host-connections), known from its modules. */
export function hostServices(requestId: number, connections: readonly string[] = []) {
  const call = (method: HostCallMethod, params: object) => hostCall(requestId, method, params);
  // JSON has no undefined: "absent" crosses as { found: false }.
  const found = async <T>(method: HostCallMethod, params: object) => {
    const answer = (await call(method, params)) as Found<T>;
    return answer.found ? answer.value : undefined;
  };
  const content = (value: string | Uint8Array) =>
    typeof value === "string"
      ? { content: value, encoding: "utf8" }
      : { content: Buffer.from(value).toString("base64"), encoding: "base64" };
  return {
    kv: {
      get: (key: string) => found("kv.get", { key }),
      entry: (key: string) => found("kv.entry", { key }),
      put: (key: string, value: unknown, options?: { ifVersion?: number }) =>
        call("kv.put", { key, value, ...options }),
      delete: async (key: string) => void (await call("kv.delete", { key })),
      list: (prefix?: string) => call("kv.list", { prefix }),
    },
    files: {
      read: (path: string, options?: FileOptions) => found<string>("files.read", { path, ...options }),
      readBytes: async (path: string, options?: FileOptions) => {
        const text = await found<string>("files.read", { path, ...options, encoding: "base64" });
        return text === undefined ? undefined : new Uint8Array(Buffer.from(text, "base64"));
      },
      write: async (path: string, value: string | Uint8Array, options?: FileOptions) =>
        void (await call("files.write", { path, ...content(value), ...options })),
      append: async (path: string, value: string | Uint8Array, options?: FileOptions) =>
        void (await call("files.append", { path, ...content(value), ...options })),
      list: (prefix?: string, options?: FileOptions) => call("files.list", { prefix, ...options }),
      delete: async (path: string, options?: FileOptions) => void (await call("files.delete", { path, ...options })),
    },
    reminders: {
      create: (options: unknown) => call("reminders.create", options as object),
      list: () => call("reminders.list", {}),
      cancel: async (id: string) => void (await call("reminders.cancel", { id })),
    },
    otel: otelServices(requestId),
    mcp: Object.freeze({
      names: () => [...connections],
      listTools: (connection: string) => call("mcp.listTools", { connection }),
      callTool: (connection: string, tool: string, args?: Record<string, unknown>) =>
        call("mcp.callTool", { connection, tool, args: args ?? {} }),
    }),
    // Slack and GitHub with the agent's own credentials, which the platform holds (docs/integrations.md).
    github: githubApi(call),
    slack: Object.freeze({ getClient: () => slackClient(call) }),
  };
}

/** A Slack Web API client whose methods are host calls (`client.chat.postMessage(args)`,
 * `client.apiCall("chat.postMessage", args)`): the platform makes them with the bot token. */
function slackClient(call: (method: HostCallMethod, params: object) => Promise<unknown>): object {
  const apiCall = (method: string, args: object = {}) => call("slack.call", { method, args });
  const at = (path: string[]): object =>
    new Proxy(() => undefined, {
      get: (_, property) => (typeof property === "symbol" || property === "then" ? undefined : at([...path, property])),
      apply: (_, __, args: unknown[]) => apiCall(path.join("."), (args[0] as object | undefined) ?? {}),
    });
  return new Proxy(
    { apiCall },
    {
      get: (target, property) =>
        property === "apiCall"
          ? target.apiCall
          : typeof property === "symbol" || property === "then"
            ? undefined
            : at([property]),
    },
  );
}

/** ctx.send / ctx.getSession of a tool or a channel route (docs/agent-folders.md, "Host API"). */
export function sessionServices(requestId: number) {
  const call = (method: HostCallMethod, params: object) => hostCall(requestId, method, params);
  return {
    send: async (channelId: string, message: string, options?: object) => {
      const started = (await call("session.send", { channelId, message, options: options ?? {} })) as {
        id: string;
        deliveryId: string;
        warning?: string;
      };
      // An option the platform ignored is said in the caller's own log, beside what it printed.
      if (started.warning) console.warn(started.warning);
      return Object.freeze({
        id: started.id,
        deliveryId: started.deliveryId,
        waitForCompletion: () => call("session.wait", { sessionId: started.id, deliveryId: started.deliveryId }),
      });
    },
    getSession: (channelId: string, sessionId: string) => call("session.get", { channelId, sessionId }),
  };
}
