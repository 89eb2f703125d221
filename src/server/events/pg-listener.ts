// One LISTEN connection that survives Postgres restarts: it reconnects with backoff and then
// calls onReconnect, because notifications sent while it was disconnected are lost.
import pg from "pg";
import { logWarning } from "@/server/logging/logger";

export type PgListener = { close: () => Promise<void> };

export async function listen(options: {
  databaseUrl: string;
  /** Channel name → handler of each notification's payload. */
  channels: Record<string, (payload: string) => void>;
  onReconnect?: () => void;
  /** Runs on each (re)connection once its LISTENs took effect: session state such as a liveness
   * lock (whoever sees the lock can count on its holder hearing what it is sent from then on). */
  onConnect?: (client: pg.Client) => Promise<void>;
  /** Runs when the connection is lost: notifications stop until the next connection. */
  onDisconnect?: () => void;
  log?: (message: string) => void;
  name: string;
}): Promise<PgListener> {
  const { databaseUrl, channels, onReconnect, onConnect, onDisconnect, log = logWarning, name } = options;
  let client: pg.Client | undefined;
  let isClosed = false;
  let retryMs = 250;

  async function connect(): Promise<void> {
    // Keepalives both ways: a peer that vanished without closing (a host crash, a partition) is
    // noticed in about a minute, by this client and by its backend (which then lets go of what
    // the connection held, such as a worker's liveness lock). Unix sockets need none.
    const next = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 30_000,
      options: "-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3",
    });
    next.on("notification", (message) => channels[message.channel]?.(message.payload ?? ""));
    next.on("error", (error) => {
      void next.end().catch(() => undefined);
      // A connection that failed while being set up is retried by whoever was connecting it.
      if (client !== next) return;
      log(`${name}: connection lost (${error.message}); reconnecting`);
      client = undefined;
      onDisconnect?.();
      if (!isClosed) setTimeout(() => void reconnect(), retryMs).unref();
    });
    await next.connect();
    try {
      for (const channel of Object.keys(channels)) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      await onConnect?.(next);
    } catch (error) {
      // It may have heard something before a LISTEN failed: that is lost with it too.
      onDisconnect?.();
      await next.end().catch(() => undefined);
      throw error;
    }
    client = next;
    retryMs = 250;
  }

  async function reconnect(): Promise<void> {
    try {
      await connect();
      onReconnect?.();
    } catch (error) {
      retryMs = Math.min(retryMs * 2, 5_000);
      log(`${name}: reconnect failed (${(error as Error).message}); retrying in ${retryMs} ms`);
      if (!isClosed) setTimeout(() => void reconnect(), retryMs).unref();
    }
  }

  await connect();
  return {
    async close() {
      isClosed = true;
      await client?.end();
    },
  };
}
