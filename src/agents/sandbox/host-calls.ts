// The sandbox's side of host calls: agent code awaits a host service (ctx.host.reminders, a
// schedule's receive / callTool), the request goes to the platform over IPC tagged with the
// platform request it belongs to, and the answer comes back here. This file runs ONLY in the
// sandbox.
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
  else pending.reject(new Error(reply.error));
  return true;
}

/** ctx.host for code running on behalf of platform request `requestId`. */
export function hostServices(requestId: number) {
  return {
    reminders: {
      create: (options: unknown) => hostCall(requestId, "reminders.create", options),
      list: () => hostCall(requestId, "reminders.list", {}),
      cancel: async (id: string) => void (await hostCall(requestId, "reminders.cancel", { id })),
    },
  };
}
