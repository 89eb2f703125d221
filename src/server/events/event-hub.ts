// One LISTEN connection per web process fans out "session S has events up to index N" (and,
// when they fit, the events themselves: ./notice.ts) to every stream of S in this process, so any
// web process can serve any session. After a reconnect every subscriber is poked without events,
// since notifications sent while disconnected are lost (readers then catch up from the log, which
// is the source of truth).
import { sessionEventsChannel } from "@/server/channels";
import { listen } from "./pg-listener";
import type { EventLine } from "./read-events";

/** Told that a session has new events: the lines themselves when the notification carried them. */
export type OnEvents = (lines?: EventLine[]) => void;

export type EventHub = {
  subscribe: (sessionId: string, onEvents: OnEvents) => () => void;
  close: () => Promise<void>;
};

export async function createEventHub({
  databaseUrl,
  log = console.error,
}: {
  databaseUrl: string;
  log?: (message: string) => void;
}): Promise<EventHub> {
  const subscribers = new Map<string, Set<OnEvents>>();
  const listener = await listen({
    name: "event hub",
    databaseUrl,
    log,
    channels: {
      [sessionEventsChannel.name]: (payload) => {
        // Most notifications are for sessions no stream here follows: look before parsing.
        const newline = payload.indexOf("\n");
        const head = newline === -1 ? payload : payload.slice(0, newline);
        const set = subscribers.get(head.slice(0, head.lastIndexOf(":")));
        if (!set) return;
        const notice = sessionEventsChannel.decode(payload);
        for (const poke of set) poke(notice?.lines);
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
