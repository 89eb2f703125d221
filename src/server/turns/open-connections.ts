// A turn's MCP connections, opened before its first model step (connection-tools.ts), and the
// wait for Connect (docs/agent-folders.md, "MCP OAuth"): an `oauth: true` connection nobody has
// connected parks a turn a person can answer — a live chat on the HTTP channel (the playground,
// the API, MCP `ask`) — with `connection.auth_requested` (the provider's page to open) until the
// OAuth callback says it is connected, 10 minutes pass, or the turn is stopped;
// `connection.auth_resolved` tells which. Every other turn fails at once with `Reconnect <name>`.
import { appendEvents } from "@/server/events/append-events";
import { logForSession } from "@/server/logging/log-for-session";
import { ConnectionNeedsAuthorization, ConnectionUnavailable } from "@/server/mcp/connection-pool";
import { connectionTools } from "./connection-tools";
import type { TurnDeps, TurnEnd, TurnSetup } from "./engine";
import type { ToolSpec } from "./turn-tools";

/** How long a turn waits for someone to connect a connection. */
export const connectWaitMs = 10 * 60_000;
/** Connect requests one turn makes before it gives up (each opens the provider's page anew). */
const maxConnectRequests = 5;

export async function openConnections(
  deps: Pick<TurnDeps, "db" | "dataDir" | "connections" | "logs" | "signal">,
  setup: TurnSetup,
  turnId: string,
): Promise<ToolSpec[] | TurnEnd> {
  const { db, signal } = deps;
  const sessionId = setup.session.id;
  const canWait = setup.session.mode === "chat" && setup.session.purpose === "live" && setup.session.channel === "http";
  for (let request = 1; ; request++) {
    try {
      return await connectionTools(deps.connections, {
        dataDir: deps.dataDir,
        setup,
        turnId,
        signal,
        warn: (message) => void logForSession(deps, { sessionId, turnId }, "warn", message),
      });
    } catch (error) {
      if (signal.aborted) return { kind: "cancelled" };
      if (!(error instanceof ConnectionUnavailable)) throw error;
      const waits = deps.connections?.authorizations;
      const canAsk = error instanceof ConnectionNeedsAuthorization && canWait && waits && request <= maxConnectRequests;
      if (!canAsk) return { kind: "failed", code: "connection_failed", message: error.message };
      const { connection, authorizeUrl } = error;
      const key = `${turnId}:connect:${connection}:${request}`;
      const waitMs = deps.connections?.connectWaitMs ?? connectWaitMs;
      await appendEvents({
        db,
        sessionId,
        events: [
          {
            type: "connection.auth_requested",
            turnId,
            data: { connection, authorizeUrl, expiresAt: new Date(Date.now() + waitMs).toISOString() },
            idempotencyKey: `${key}:requested`,
          },
        ],
      });
      const outcome = await waits.wait(setup.session.agentId, connection, { signal, timeoutMs: waitMs });
      await appendEvents({
        db,
        sessionId,
        events: [
          {
            type: "connection.auth_resolved",
            turnId,
            data: { connection, outcome },
            idempotencyKey: `${key}:resolved`,
          },
        ],
      });
      if (outcome === "cancelled") return { kind: "cancelled" };
      if (outcome === "expired")
        return {
          kind: "failed",
          code: "connection_failed",
          message: `Reconnect ${connection}: nobody connected it within ${Math.round(waitMs / 60_000)} minutes`,
        };
    }
  }
}
