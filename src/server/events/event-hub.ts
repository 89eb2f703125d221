// One LISTEN connection per web process fans out "session S has events up to index N" to every
// stream of S in this process, so any web process can serve any session. After a reconnect every
// subscriber is poked, since notifications sent while disconnected are lost (readers then catch
// up from the log, which is the source of truth).
import { eventsChannel } from "./append-events";
import { listen } from "./pg-listener";

export type EventHub = {
  subscribe: (sessionId: string, onEvents: () => void) => () => void;
  close: () => Promise<void>;
};

export async function createEventHub({ databaseUrl, log = console.error }: { databaseUrl: string; log?: (message: string) => void }): Promise<EventHub> {
  const subscribers = new Map<string, Set<() => void>>();
  const listener = await listen({
    name: "event hub",
    databaseUrl,
    log,
    channels: {
      [eventsChannel]: (payload) => {
        const sessionId = payload.slice(0, payload.lastIndexOf(":"));
        if (sessionId) for (const poke of subscribers.get(sessionId) ?? []) poke();
      },
    },
    onReconnect: () => {
      for (const set of subscribers.values()) for (const poke of set) poke();
    },
  });
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
    close: () => listener.close(),
  };
}
