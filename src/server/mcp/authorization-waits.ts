// Turns waiting for someone to connect an `oauth: true` MCP connection (docs/agent-folders.md,
// "MCP OAuth"): each waits in the process that runs it until the OAuth callback's notice for its
// agent and connection arrives (mcpAuthorizedChannel), its time is up, or the turn is stopped.
// A notice lost while the listener was down is made up for by waking every waiter when it is back:
// a turn woken for nothing tries the connection once more and, still unauthorized, waits again.
import { mcpAuthorizedChannel } from "@/server/channels";
import { listen, type PgListener } from "@/server/events/pg-listener";

export type WaitOutcome = "connected" | "expired" | "cancelled";

export type AuthorizationWaits = {
  wait: (
    agentId: string,
    connection: string,
    options: { signal: AbortSignal; timeoutMs: number },
  ) => Promise<WaitOutcome>;
  close: () => Promise<void>;
};

export async function createAuthorizationWaits(options: { databaseUrl: string }): Promise<AuthorizationWaits> {
  const waiters = new Map<string, Set<() => void>>();
  const keyOf = (agentId: string, connection: string) => `${agentId}\t${connection}`;
  const wake = (key?: string) => {
    for (const [waiting, wakes] of waiters) if (key === undefined || key === waiting) for (const fn of wakes) fn();
  };
  const listener: PgListener = await listen({
    name: "mcp authorizations",
    databaseUrl: options.databaseUrl,
    channels: {
      [mcpAuthorizedChannel.name]: (payload) => {
        const notice = mcpAuthorizedChannel.decode(payload);
        if (notice) wake(keyOf(notice.agentId, notice.connection));
      },
    },
    onReconnect: () => wake(),
  });
  return {
    wait(agentId, connection, { signal, timeoutMs }) {
      const key = keyOf(agentId, connection);
      return new Promise<WaitOutcome>((resolve) => {
        const wakes = waiters.get(key) ?? new Set();
        waiters.set(key, wakes);
        const done = (outcome: WaitOutcome) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", cancelled);
          wakes.delete(connected);
          if (wakes.size === 0) waiters.delete(key);
          resolve(outcome);
        };
        const connected = () => done("connected");
        const cancelled = () => done("cancelled");
        const timer = setTimeout(() => done("expired"), timeoutMs);
        wakes.add(connected);
        if (signal.aborted) return cancelled();
        signal.addEventListener("abort", cancelled, { once: true });
      });
    },
    close: () => listener.close(),
  };
}
