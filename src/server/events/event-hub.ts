// One LISTEN connection per web process fans out "session S has events up to index N" (and,
// when they fit, the events themselves: ./notice.ts) to every stream of S in this process, so any
// web process can serve any session. After a reconnect every subscriber is poked without events,
// since notifications sent while disconnected are lost (readers then catch up from the log, which
// is the source of truth). The same connection hears agents' artifact changes for the artifact
// streams (src/server/artifacts/stream-artifacts.ts).
import { artifactsChannel, sessionEventsChannel } from "@/server/channels";
import { listen } from "./pg-listener";
import type { EventLine } from "./read-events";
import { logWarning } from "@/server/logging/logger";

/** Told that a session has new events: the lines themselves when the notification carried them. */
export type OnEvents = (lines?: EventLine[]) => void;

export type EventHub = {
  subscribe: (sessionId: string, onEvents: OnEvents) => () => void;
  /** Told that an agent's artifacts changed (or, after a reconnect, may have). */
  subscribeArtifacts: (agentId: string, onChange: () => void) => () => void;
  close: () => Promise<void>;
};

export async function createEventHub({
  databaseUrl,
  log = logWarning,
}: {
  databaseUrl: string;
  log?: (message: string) => void;
}): Promise<EventHub> {
  const subscribers = new Map<string, Set<OnEvents>>();
  const artifactSubscribers = new Map<string, Set<() => void>>();
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
      [artifactsChannel.name]: (payload) => {
        const agentId = artifactsChannel.decode(payload);
        for (const poke of (agentId && artifactSubscribers.get(agentId)) || []) poke();
      },
    },
    onReconnect: () => {
      for (const set of subscribers.values()) for (const poke of set) poke();
      for (const set of artifactSubscribers.values()) for (const poke of set) poke();
    },
  });
  return {
    subscribe: (sessionId, onEvents) => addTo(subscribers, sessionId, onEvents),
    subscribeArtifacts: (agentId, onChange) => addTo(artifactSubscribers, agentId, onChange),
    close: () => listener.close(),
  };
}

function addTo<T>(map: Map<string, Set<T>>, key: string, subscriber: T): () => void {
  const set = map.get(key) ?? new Set();
  set.add(subscriber);
  map.set(key, set);
  return () => {
    set.delete(subscriber);
    if (set.size === 0) map.delete(key);
  };
}
