// A fake Slack at the HTTP boundary, for tests that drive the real SDKs against it
// (`new WebClient(token, { slackApiUrl: fake.url })`, `SocketModeClient({ appToken, clientOptions:
// { slackApiUrl } })`): the Web API as form or JSON POSTs under /api/, Socket Mode over a WebSocket.
// It keeps what a test asserts on: every call, the bot's messages with their edits, reactions.
// Loopback only. `/_control/…` lets a test in another process (a Playwright spec) change it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type EnvelopeAck, type EnvelopeType, socketModeFake } from "./socket-mode";
import {
  answerMethod,
  type FakeSlackEphemeral,
  type FakeSlackMessage,
  type FakeSlackReaction,
  type FakeSlackUser,
  fakeSlackDefaultScopes,
  type SlackState,
} from "./web-api";

export { signSlackRequest } from "./sign-request";
export { fakeSlackDefaultScopes, type FakeSlackMessage, type FakeSlackUser };

export type FakeSlackCall = { method: string; args: Record<string, unknown>; token?: string; at: number };

export type FakeSlack = {
  /** The SLACK_API_URL: `http://127.0.0.1:<port>/api/` (with the trailing slash the SDK expects). */
  url: string;
  calls: FakeSlackCall[];
  /** Posted messages (chat.postMessage) with every chat.update applied; chat.delete removes one. */
  messages: FakeSlackMessage[];
  ephemerals: FakeSlackEphemeral[];
  /** Reactions now on messages (reactions.add minus reactions.remove). */
  reactions: FakeSlackReaction[];
  /** The bot token the fake accepts (others: invalid_auth), its bot user id, team id; the app token. */
  botToken: string;
  botUserId: string;
  botId: string;
  teamId: string;
  appToken: string;
  /** Scopes auth.test reports (the `x-oauth-scopes` response header); default: every scope the pack needs. */
  setScopes(scopes: string[]): void;
  /** users.info answers these (profile.email, is_email_confirmed). */
  addUser(user: FakeSlackUser): void;
  /** A message someone else wrote, for conversations.replies; returns its ts (generated when not given). */
  addMessage(message: { channel: string; user: string; text: string; ts?: string; thread_ts?: string }): string;
  /** The next call of `method` answers `{ ok: false, error }` (once per call to failNext). */
  failNext(method: string, error: string): void;
  /** An Events API `event_callback` body around `event`, as Slack posts it (or wraps it in an envelope). */
  eventCallback(event: Record<string, unknown>): Record<string, unknown>;
  /** Socket Mode: sends an envelope to the connected client and resolves with its ack (payload as the client sent it). */
  pushEnvelope(
    type: EnvelopeType,
    payload: unknown,
    options?: { timeoutMs?: number },
  ): Promise<{ envelope_id: string; payload?: unknown }>;
  /** Resolves once a Socket Mode client is connected (after hello). */
  socketConnected(): Promise<void>;
  /** Socket Mode: Slack's `disconnect` message; the SDK closes and opens a new connection. */
  requestReconnect(reason?: string): void;
  close(): Promise<void>;
};

// Web API arguments that arrive JSON-encoded in a form body (the SDK encodes every non-scalar).
const jsonArgs = new Set(["blocks", "attachments", "metadata", "loading_messages", "prompts", "unfurls"]);

export async function startFakeSlack(options: { scopes?: string[]; port?: number } = {}): Promise<FakeSlack> {
  let tsCounter = 1_700_000_000_000_100n;
  let address = "";
  let eventCounter = 0;
  const socket = socketModeFake({ appId: "A0FAKEAPP" });
  const state: SlackState = {
    botToken: "xoxb-fake-bot-token",
    appToken: "xapp-1-fake-app-token",
    botUserId: "U0FAKEBOT",
    botId: "B0FAKEBOT",
    appId: "A0FAKEAPP",
    teamId: "T0FAKETEAM",
    scopes: [...(options.scopes ?? fakeSlackDefaultScopes)],
    threadMessages: [],
    posted: [],
    ephemerals: [],
    reactions: [],
    users: new Map(),
    failures: new Map(),
    nextTs: () => {
      tsCounter += 100n;
      const text = tsCounter.toString();
      return `${text.slice(0, -6)}.${text.slice(-6)}`;
    },
    openConnection: () => socket.openConnection(address.replace(/^http/, "ws")),
  };
  const calls: FakeSlackCall[] = [];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://fake-slack");
      const body = Buffer.concat(chunks).toString("utf8");
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
        response.end(JSON.stringify(json));
      };
      if (url.pathname.startsWith("/_control/")) return control(url.pathname, body, send);
      const method = /^\/api\/([A-Za-z0-9._]+)$/.exec(url.pathname)?.[1];
      if (!method) return send(404, { ok: false, error: "not_found" });
      const { args, token } = parseCall(request, url, body);
      calls.push({ method, args, ...(token ? { token } : {}), at: Date.now() });
      const answer = answerMethod(state, method, args, token);
      send(200, answer.body, answer.headers);
    });
  });
  server.on("upgrade", (request, duplex, head) => socket.handleUpgrade(request, duplex, head));

  function control(path: string, body: string, send: (status: number, json: unknown) => void) {
    if (path === "/_control/scopes") {
      const scopes = (JSON.parse(body || "{}") as { scopes?: unknown }).scopes;
      if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) {
        return send(400, { ok: false, error: "expected { scopes: string[] }" });
      }
      state.scopes = [...scopes];
      return send(200, { ok: true, scopes: state.scopes });
    }
    if (path === "/_control/calls") return send(200, { ok: true, calls, messages: state.posted });
    send(404, { ok: false, error: "not_found" });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${address}/api/`,
    calls,
    messages: state.posted,
    ephemerals: state.ephemerals,
    reactions: state.reactions,
    botToken: state.botToken,
    botUserId: state.botUserId,
    botId: state.botId,
    teamId: state.teamId,
    appToken: state.appToken,
    setScopes: (scopes) => {
      state.scopes = [...scopes];
    },
    addUser: (user) => {
      state.users.set(user.id, user);
    },
    addMessage: (message) => {
      const ts = message.ts ?? state.nextTs();
      // Later posts get later timestamps than anything seeded, as in a real thread.
      const seeded = tsMicros(ts);
      if (seeded > tsCounter) tsCounter = seeded;
      const { thread_ts } = message;
      state.threadMessages.push({
        channel: message.channel,
        ts,
        ...(thread_ts ? { thread_ts } : {}),
        text: message.text,
        updates: 0,
        history: [message.text],
        user: message.user,
      });
      state.threadMessages.sort((a, b) => (tsMicros(a.ts) < tsMicros(b.ts) ? -1 : 1));
      return ts;
    },
    failNext: (method, error) => {
      state.failures.set(method, [...(state.failures.get(method) ?? []), error]);
    },
    eventCallback: (event) => ({
      token: "fake-verification-token",
      team_id: state.teamId,
      api_app_id: state.appId,
      event,
      type: "event_callback",
      event_id: `Ev0FAKE${String(++eventCounter).padStart(6, "0")}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: state.teamId,
          user_id: state.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    }),
    pushEnvelope: (type, payload, pushOptions): Promise<EnvelopeAck> => socket.pushEnvelope(type, payload, pushOptions),
    socketConnected: () => socket.socketConnected(),
    requestReconnect: (reason) => socket.requestReconnect(reason),
    close: () =>
      new Promise<void>((resolve) => {
        socket.close();
        // The SDK's fetch keeps connections alive; without this, close() would wait for them to idle out.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A call's arguments and token, from a form, JSON or query-string request as Slack accepts them. */
function parseCall(
  request: http.IncomingMessage,
  url: URL,
  body: string,
): { args: Record<string, unknown>; token?: string } {
  const contentType = request.headers["content-type"] ?? "";
  let args: Record<string, unknown> = {};
  if (contentType.includes("application/json")) {
    args = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } else {
    const form = new URLSearchParams(contentType.includes("x-www-form-urlencoded") ? body : url.search);
    for (const [key, value] of form) args[key] = jsonArgs.has(key) ? parseJsonArg(value) : value;
  }
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  const { token: bodyToken, ...rest } = args;
  const token = bearer ?? (typeof bodyToken === "string" ? bodyToken : undefined);
  return { args: rest, ...(token ? { token } : {}) };
}

function parseJsonArg(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function tsMicros(ts: string): bigint {
  const [seconds = "0", micros = "0"] = ts.split(".");
  return BigInt(seconds) * 1_000_000n + BigInt(micros.padEnd(6, "0").slice(0, 6));
}
