// Socket Mode as Slack speaks it: `apps.connections.open` hands out a one-time `ws://…/link/?ticket=`
// URL; on connect Slack says `hello`, pings now and then, sends envelopes and waits for an ack
// `{ envelope_id, payload? }`, and asks a client to reconnect with `disconnect`.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";

export type EnvelopeType = "events_api" | "interactive" | "slash_commands";
export type EnvelopeAck = { envelope_id: string; payload?: unknown };

export type SocketModeFake = {
  openConnection: (baseWsUrl: string) => string;
  handleUpgrade: (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  pushEnvelope: (type: EnvelopeType, payload: unknown, options?: { timeoutMs?: number }) => Promise<EnvelopeAck>;
  socketConnected: () => Promise<void>;
  requestReconnect: (reason?: string) => void;
  /** Envelopes sent, each with its ack once it came. */
  envelopes: { envelope_id: string; type: EnvelopeType; payload: unknown; ack?: EnvelopeAck }[];
  close: () => void;
};

// Slack pings about every 5 s; the client drops a connection that stays silent for 30 s after a ping.
const pingEveryMs = 5_000;

export function socketModeFake(options: { appId: string }): SocketModeFake {
  const tickets = new Set<string>();
  const wss = new WebSocketServer({ noServer: true });
  const live = new Set<WebSocket>();
  const pending = new Map<string, (ack: EnvelopeAck) => void>();
  let waiters: (() => void)[] = [];
  const envelopes: SocketModeFake["envelopes"] = [];

  wss.on("connection", (ws) => {
    const pinger = setInterval(() => ws.ping(), pingEveryMs);
    pinger.unref();
    ws.on("close", () => {
      clearInterval(pinger);
      live.delete(ws);
    });
    ws.on("message", (data) => {
      const ack = parseAck(data.toString());
      if (ack) pending.get(ack.envelope_id)?.(ack);
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: live.size + 1,
        debug_info: { host: "fake-slack", build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: options.appId },
      }),
    );
    live.add(ws);
    for (const resolve of waiters) resolve();
    waiters = [];
  });

  function current(): WebSocket | undefined {
    // Slack picks one of an app's connections; the newest is as good as any and is deterministic.
    return [...live].filter((ws) => ws.readyState === ws.OPEN).at(-1);
  }

  return {
    envelopes,
    openConnection(baseWsUrl) {
      const ticket = randomUUID();
      tickets.add(ticket);
      return `${baseWsUrl}/link/?ticket=${ticket}&app_id=${options.appId}`;
    },
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? "/", "http://fake-slack");
      const ticket = url.searchParams.get("ticket") ?? "";
      // A ticket is good for one connection, as Slack's are.
      if (url.pathname !== "/link/" || !tickets.delete(ticket)) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
    },
    pushEnvelope(type, payload, { timeoutMs = 10_000 } = {}) {
      const ws = current();
      if (!ws) return Promise.reject(new Error("fake Slack: no Socket Mode client is connected"));
      const envelope_id = randomUUID();
      const record: SocketModeFake["envelopes"][number] = { envelope_id, type, payload };
      envelopes.push(record);
      return new Promise<EnvelopeAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(envelope_id);
          reject(new Error(`fake Slack: envelope ${envelope_id} (${type}) was not acknowledged in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(envelope_id, (ack) => {
          clearTimeout(timer);
          pending.delete(envelope_id);
          record.ack = ack;
          resolve(ack);
        });
        ws.send(
          JSON.stringify({
            envelope_id,
            type,
            payload,
            accepts_response_payload: type !== "events_api",
            ...(type === "events_api" ? { retry_attempt: 0, retry_reason: "" } : {}),
          }),
        );
      });
    },
    socketConnected() {
      if (current()) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    requestReconnect(reason = "refresh_requested") {
      for (const ws of live)
        ws.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-slack" } }));
    },
    close() {
      for (const ws of live) ws.terminate();
      wss.close();
    },
  };
}

function parseAck(text: string): EnvelopeAck | undefined {
  try {
    const message = JSON.parse(text) as { envelope_id?: unknown; payload?: unknown };
    if (typeof message.envelope_id !== "string") return undefined;
    return { envelope_id: message.envelope_id, ...("payload" in message ? { payload: message.payload } : {}) };
  } catch {
    return undefined;
  }
}
