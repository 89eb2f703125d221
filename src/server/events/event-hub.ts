// One LISTEN connection per web process fans out "session S has events up to index N" to every
// stream of S in this process, so any web process can serve any session. After a reconnect every
// subscriber is poked, since notifications sent while disconnected are lost (readers then catch
// up from the log, which is the source of truth).
import pg from "pg";
import { eventsChannel } from "./append-events";

export type EventHub = {
  subscribe: (sessionId: string, onEvents: () => void) => () => void;
  close: () => Promise<void>;
};

export async function createEventHub({ databaseUrl, log = console.error }: { databaseUrl: string; log?: (message: string) => void }): Promise<EventHub> {
  const subscribers = new Map<string, Set<() => void>>();
  let client: pg.Client | undefined;
  let isClosed = false;
  let retryMs = 250;

  const pokeAll = () => {
    for (const set of subscribers.values()) for (const poke of set) poke();
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on("notification", (message) => {
      const sessionId = message.payload?.slice(0, message.payload.lastIndexOf(":"));
      if (sessionId) for (const poke of subscribers.get(sessionId) ?? []) poke();
    });
    next.on("error", (error) => {
      log(`event hub: connection lost (${error.message}); reconnecting`);
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (!isClosed) setTimeout(() => void reconnect(), retryMs).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${eventsChannel}`);
    client = next;
    retryMs = 250;
  }

  async function reconnect(): Promise<void> {
    try {
      await connect();
      pokeAll();
    } catch (error) {
      retryMs = Math.min(retryMs * 2, 5_000);
      log(`event hub: reconnect failed (${(error as Error).message}); retrying in ${retryMs} ms`);
      if (!isClosed) setTimeout(() => void reconnect(), retryMs).unref();
    }
  }

  await connect();
  return {
    subscribe(sessionId, onEvents) {
      const set = subscribers.get(sessionId) ?? new Set();
      set.add(onEvents);
      subscribers.set(sessionId, set);
      return () => {
        set.delete(onEvents);
        if (set.size === 0) subscribers.delete(sessionId);
      };
    },
    async close() {
      isClosed = true;
      await client?.end();
    },
  };
}
