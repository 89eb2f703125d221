// The MCP requests this web process is answering, so a `notifications/cancelled` can find its
// request: with a stateless transport each HTTP request gets its own server, and the cancel comes
// in a request of its own. Keyed by agent, principal and JSON-RPC id; a principal only ever
// cancels its own requests. Requests answered by another web process are not here (docs/api.md,
// "MCP": cancellation reaches a request only in the process serving it).
import type { Principal } from "@/server/auth/principal";

type RequestId = string | number;

const inflight = new Map<string, Set<AbortController>>();

const keyOf = (agentId: string, principal: Principal, requestId: RequestId) =>
  JSON.stringify([agentId, principal.kind, principal.id, requestId]);

/** Tracks a request until `done`; its signal aborts when a cancel for it comes. */
export function trackMcpRequest(
  agentId: string,
  principal: Principal,
  requestId: RequestId,
): { signal: AbortSignal; done: () => void } {
  const key = keyOf(agentId, principal, requestId);
  const controller = new AbortController();
  const set = inflight.get(key) ?? new Set();
  set.add(controller);
  inflight.set(key, set);
  return {
    signal: controller.signal,
    done: () => {
      set.delete(controller);
      if (set.size === 0 && inflight.get(key) === set) inflight.delete(key);
    },
  };
}

/** Aborts the principal's requests with that id (two clients of one token may reuse an id: both
 * stop). Whether any was found. */
export function cancelMcpRequest(
  agentId: string,
  principal: Principal,
  requestId: RequestId,
  reason?: string,
): boolean {
  const set = inflight.get(keyOf(agentId, principal, requestId));
  for (const controller of set ?? []) controller.abort(reason ?? "cancelled by the client");
  return (set?.size ?? 0) > 0;
}
