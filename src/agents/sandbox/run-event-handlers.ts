// Agent code that answers one event in the sandbox: a hook's handlers for a session event, a
// channel's `events` handlers with the session's channel state, and a prebuilt channel's handler
// (githubChannel's onPullRequest …) with its decision. A throw is the call's error result. This
// file runs ONLY in the sandbox.
import { artifactsApi } from "./artifacts-api";
import { type AnyRecord, defaultExport, type ModuleLoaders } from "./bundle-modules";
import { eventScope, hostFor } from "./call-ctx";
import { logCallError } from "./console-capture";
import { errorText } from "./error-text";
import { toJsonSafe } from "./json-safe";
import type { ChannelEventRequest, PackHandlerOutcome, PackHandlerRequest } from "./protocol";

/** A prebuilt channel's event handlers (githubChannel), each run by runPackHandler. */
export const packHandlers = ["onPullRequest", "onIssue", "onComment"] as const;

export async function runHook(
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
      host: hostFor(modules, requestId),
      artifacts: artifactsApi(requestId, modules, eventScope(params.context, params.event)),
    });
    for (const handler of handlers) await handler!(params.event, ctx);
    return { ok: true as const, handled: handlers.length };
  } catch (error) {
    logCallError(error, `${params.file} on ${params.event.type}`);
    return { ok: false as const, error: errorText(error) };
  }
}

/** A channel's `events` handler for one of its sessions' events, with the session's channel
 * state; answers the state as the handler left it, and a new conversation key if it set one. */
export async function runChannelEvent(modules: ModuleLoaders, params: ChannelEventRequest, requestId: number) {
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
      host: hostFor(modules, requestId),
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
export async function runPackHandler(
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
    const ctx = Object.freeze({ ...params.context, host: hostFor(modules, requestId) });
    const decision = await (handler as (ctx: unknown, payload: unknown) => unknown)(ctx, Object.freeze(params.payload));
    return { ok: true, isDefined: true, decision: toJsonSafe(decision) ?? null };
  } catch (error) {
    logCallError(error, `${params.file} ${params.handler}`);
    return { ok: false, error: errorText(error) };
  }
}
