// The pieces of the ctx agent code gets in a call, shared by the runner's methods: ctx.host (host
// calls made for the platform's request), ctx.waitUntil's background work, and the session and
// turn an artifact is tagged for. This file runs ONLY in the sandbox.
import { connectionNames, type ModuleLoaders } from "./bundle-modules";
import { errorText } from "./error-text";
import { hostServices } from "./host-calls";

/** ctx.host for code running on behalf of the platform's request `requestId`. */
export function hostFor(modules: ModuleLoaders, requestId: number) {
  return hostServices(requestId, connectionNames(modules));
}

/** ctx.waitUntil of a tool or schedule: the call answers once the work is done too, so the work
 * keeps its host services; a failure is logged, not the call's. */
export function backgroundWork() {
  const work: Promise<unknown>[] = [];
  return {
    waitUntil: (promise: Promise<unknown>) =>
      void work.push(Promise.resolve(promise).catch((error) => console.error("waitUntil:", errorText(error)))),
    settled: () => Promise.all(work),
  };
}

/** A real session id: tools called outside a session see a stand-in ("direct", "schedule"). */
export function sessionOf(id: string): string | undefined {
  return id.startsWith("ses_") ? id : undefined;
}

/** A hook's or channel handler's facade fills in the event's session and turn. */
export function eventScope(context: object, event: { type: string; turnId?: string | null }) {
  const session = (context as { session?: { id?: string } }).session;
  return { sessionId: session?.id, ...(event.turnId ? { turnId: event.turnId } : {}) };
}
