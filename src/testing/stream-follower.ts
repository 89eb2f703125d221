// A client of a session's NDJSON stream that survives the web process it reads from: when the
// stream breaks, it reconnects to the next web with startIndex = the last index it has + 1, as
// docs/api.md tells clients to, and records each reconnection and what the first event after it
// was, so a test can check it got exactly what it missed.
import http from "node:http";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { sleep } from "@/cli/start/wait";

export type Reconnection = { startIndex: number; firstIndex?: number; url: string };

export type StreamFollower = {
  events: SessionEvent[];
  /** Resolves once the first connection answered 200 (it is subscribed from then on). */
  connected: Promise<void>;
  reconnections: Reconnection[];
  /** Resolves once an event matches (already received, or when it arrives). */
  waitFor: (match: (event: SessionEvent) => boolean, timeoutMs: number) => Promise<SessionEvent>;
  close: () => void;
};

export function followStream(options: {
  urls: string[];
  slug: string;
  sessionId: string;
  token: string;
  /** Which of `urls` to read from first. */
  first?: number;
  startIndex?: number;
}): StreamFollower {
  const { urls, slug, sessionId, token } = options;
  const events: SessionEvent[] = [];
  const reconnections: Reconnection[] = [];
  const waiters = new Set<() => void>();
  let isClosed = false;
  let current: http.ClientRequest | undefined;
  let turn = options.first ?? 0;
  let connections = 0;
  let nextIndex = options.startIndex ?? 0;
  let markConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (markConnected = resolve));

  function connect(): void {
    if (isClosed) return;
    const url = urls[turn++ % urls.length]!;
    const startIndex = nextIndex;
    const reconnection: Reconnection | undefined = connections++ > 0 ? { startIndex, url } : undefined;
    if (reconnection) reconnections.push(reconnection);
    let buffered = "";
    const retry = () => {
      if (current !== request) return;
      current = undefined;
      void sleep(100).then(connect);
    };
    const request = http.get(
      `${url}/${slug}/v1/session/${sessionId}/stream?startIndex=${startIndex}`,
      { headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return retry();
        }
        markConnected();
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffered += chunk;
          let newline = buffered.indexOf("\n");
          while (newline !== -1) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            newline = buffered.indexOf("\n");
            if (!line.trim()) continue;
            const parsed = sessionEventSchema.safeParse(JSON.parse(line));
            // Heartbeats and error lines; an error line ends the stream, and its end reconnects.
            if (!parsed.success) continue;
            if (reconnection && reconnection.firstIndex === undefined) reconnection.firstIndex = parsed.data.index;
            events.push(parsed.data);
            nextIndex = parsed.data.index + 1;
          }
          for (const wake of waiters) wake();
        });
        response.on("end", retry);
        response.on("error", retry);
      },
    );
    request.on("error", retry);
    current = request;
  }

  connect();
  return {
    events,
    connected,
    reconnections,
    async waitFor(match, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`stream of ${sessionId}: no matching event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 250);
        });
      }
    },
    close() {
      isClosed = true;
      current?.destroy();
    },
  };
}
