// The fake Slack speaks the real SDKs' protocol: every case drives it with @slack/web-api's
// WebClient or @slack/socket-mode's SocketModeClient, as the platform does.
import { isValidSlackRequest } from "@slack/bolt/dist/receivers/verify-request.js";
import { LogLevel, SocketModeClient } from "@slack/socket-mode";
import { WebClient } from "@slack/web-api";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type FakeSlack, fakeSlackDefaultScopes, signSlackRequest, startFakeSlack } from "./fake-slack";

let fake: FakeSlack;
let bot: WebClient;

beforeEach(async () => {
  fake = await startFakeSlack();
  // No retries: a refused call should fail the test at once, not after the SDK's backoff.
  bot = new WebClient(fake.botToken, { slackApiUrl: fake.url, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
});
afterEach(() => fake.close());

async function slackError(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = (await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { data?: Record<string, unknown> };
  expect(error?.data, "the call should have been refused").toBeDefined();
  return error.data!;
}

describe("Web API", () => {
  test("auth.test names the bot and reports the token's scopes as Slack's header does", async () => {
    const result = await bot.auth.test();
    expect(result).toMatchObject({ ok: true, user_id: fake.botUserId, team_id: fake.teamId, bot_id: fake.botId });
    expect(result.response_metadata?.scopes).toEqual(fakeSlackDefaultScopes);
    fake.setScopes(["chat:write"]);
    expect((await bot.auth.test()).response_metadata?.scopes).toEqual(["chat:write"]);
    expect(fake.calls.map((call) => [call.method, call.token])).toEqual([
      ["auth.test", fake.botToken],
      ["auth.test", fake.botToken],
    ]);
  });

  test("refuses a wrong token, an app token where a bot token belongs, and an unknown method", async () => {
    const stranger = new WebClient("xoxb-someone-else", { slackApiUrl: fake.url, retryConfig: { retries: 0 } });
    expect(await slackError(stranger.auth.test())).toMatchObject({ error: "invalid_auth" });
    const app = new WebClient(fake.appToken, { slackApiUrl: fake.url, retryConfig: { retries: 0 } });
    expect(await slackError(app.chat.postMessage({ channel: "C1", text: "hi" }))).toMatchObject({
      error: "not_allowed_token_type",
    });
    expect(await slackError(bot.apps.connections.open({}))).toMatchObject({ error: "not_allowed_token_type" });
    expect(await slackError(bot.apiCall("chat.notAThing", {}))).toMatchObject({ error: "unknown_method" });
  });

  test("posts, updates and deletes messages, keeping each text and decoding form-encoded blocks", async () => {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*Working…*" } }];
    const posted = await bot.chat.postMessage({
      channel: "C1",
      thread_ts: "1699999999.000001",
      text: "Working…",
      blocks,
    });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(posted.message).toMatchObject({ user: fake.botUserId, bot_id: fake.botId, text: "Working…" });
    await bot.chat.update({ channel: "C1", ts: posted.ts!, text: "Working… 50%" });
    await bot.chat.update({ channel: "C1", ts: posted.ts!, text: "Done." });
    expect(fake.messages).toEqual([
      {
        channel: "C1",
        ts: posted.ts,
        thread_ts: "1699999999.000001",
        text: "Done.",
        blocks,
        updates: 2,
        history: ["Working…", "Working… 50%", "Done."],
        user: fake.botUserId,
      },
    ]);
    const second = await bot.chat.postMessage({ channel: "C1", text: "again" });
    expect(Number(second.ts)).toBeGreaterThan(Number(posted.ts));
    expect(await slackError(bot.chat.update({ channel: "C1", ts: "1.000000", text: "x" }))).toMatchObject({
      error: "message_not_found",
    });
    await bot.chat.delete({ channel: "C1", ts: posted.ts! });
    expect(fake.messages.map((message) => message.text)).toEqual(["again"]);
    expect(await slackError(bot.chat.postMessage({ channel: "C1", text: "" }))).toMatchObject({ error: "no_text" });
  });

  test("answers JSON bodies as well as forms", async () => {
    const response = await fetch(`${fake.url}chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${fake.botToken}`, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ channel: "D1", text: "json", blocks: [{ type: "divider" }] }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: "D1" });
    expect(fake.messages[0]).toMatchObject({ text: "json", blocks: [{ type: "divider" }] });
  });

  test("refuses a call whose scope the token lacks, naming the scope, as Slack does", async () => {
    fake.setScopes(fakeSlackDefaultScopes.filter((scope) => scope !== "chat:write" && scope !== "assistant:write"));
    expect(await slackError(bot.chat.postMessage({ channel: "C1", text: "hi" }))).toMatchObject({
      error: "missing_scope",
      needed: "chat:write",
    });
    expect(
      await slackError(bot.assistant.threads.setStatus({ channel_id: "D1", thread_ts: "1.1", status: "thinking" })),
    ).toMatchObject({ error: "missing_scope" });
    fake.setScopes(["assistant:write"]);
    await bot.assistant.threads.setStatus({ channel_id: "D1", thread_ts: "1.1", status: "is thinking…" });
    expect(fake.calls.at(-1)).toMatchObject({
      method: "assistant.threads.setStatus",
      args: { channel_id: "D1", thread_ts: "1.1", status: "is thinking…" },
    });
  });

  test("conversations.replies returns a thread's messages in order, seeded and posted", async () => {
    const parent = fake.addMessage({ channel: "C1", user: "U1", text: "help?", ts: "1700000500.000001" });
    fake.addMessage({ channel: "C1", user: "U1", text: "elsewhere", ts: "1700000501.000001" });
    const reply = await bot.chat.postMessage({ channel: "C1", thread_ts: parent, text: "on it" });
    expect(Number(reply.ts)).toBeGreaterThan(Number(parent));
    const thread = await bot.conversations.replies({ channel: "C1", ts: parent });
    expect(thread.messages?.map((message) => [message.user, message.text])).toEqual([
      ["U1", "help?"],
      [fake.botUserId, "on it"],
    ]);
    const firstPage = await bot.conversations.replies({ channel: "C1", ts: parent, limit: 1 });
    expect(firstPage).toMatchObject({ has_more: true, response_metadata: { next_cursor: "1" } });
    expect(await slackError(bot.conversations.replies({ channel: "C1", ts: "1.000000" }))).toMatchObject({
      error: "thread_not_found",
    });
  });

  test("users.info shows the email only to a token with users:read.email", async () => {
    fake.addUser({ id: "U1", name: "ada", email: "ada@example.com", isEmailConfirmed: true });
    const seen = await bot.users.info({ user: "U1" });
    expect(seen.user).toMatchObject({
      id: "U1",
      name: "ada",
      is_email_confirmed: true,
      profile: { email: "ada@example.com" },
    });
    fake.setScopes(["users:read"]);
    expect((await bot.users.info({ user: "U1" })).user?.profile?.email).toBeUndefined();
    expect(await slackError(bot.users.info({ user: "U404" }))).toMatchObject({ error: "user_not_found" });
  });

  test("keeps reactions, refusing a duplicate and a removal of one that is not there", async () => {
    await bot.reactions.add({ channel: "C1", timestamp: "1.000001", name: "eyes" });
    expect(await slackError(bot.reactions.add({ channel: "C1", timestamp: "1.000001", name: "eyes" }))).toMatchObject({
      error: "already_reacted",
    });
    expect(fake.reactions).toEqual([{ channel: "C1", ts: "1.000001", name: "eyes" }]);
    await bot.reactions.remove({ channel: "C1", timestamp: "1.000001", name: "eyes" });
    expect(fake.reactions).toEqual([]);
    expect(
      await slackError(bot.reactions.remove({ channel: "C1", timestamp: "1.000001", name: "eyes" })),
    ).toMatchObject({ error: "no_reaction" });
  });

  test("ephemeral messages, bots.info and a queued failure", async () => {
    fake.addUser({ id: "U1" });
    const ephemeral = await bot.chat.postEphemeral({ channel: "C1", user: "U1", text: "only you" });
    expect(fake.ephemerals).toEqual([
      { channel: "C1", user: "U1", text: "only you", message_ts: ephemeral.message_ts },
    ]);
    expect((await bot.bots.info({ bot: fake.botId })).bot).toMatchObject({ id: fake.botId, user_id: fake.botUserId });
    fake.failNext("chat.postMessage", "channel_not_found");
    expect(await slackError(bot.chat.postMessage({ channel: "C1", text: "a" }))).toMatchObject({
      error: "channel_not_found",
    });
    await bot.chat.postMessage({ channel: "C1", text: "b" });
    expect(fake.messages.map((message) => message.text)).toEqual(["b"]);
  });

  test("the control endpoint changes the scopes from another process", async () => {
    const origin = new URL(fake.url).origin;
    const response = await fetch(`${origin}/_control/scopes`, {
      method: "POST",
      body: JSON.stringify({ scopes: ["chat:write", "users:read"] }),
    });
    expect(response.status).toBe(200);
    expect((await bot.auth.test()).response_metadata?.scopes).toEqual(["chat:write", "users:read"]);
  });
});

describe("Socket Mode", () => {
  let client: SocketModeClient | undefined;
  afterEach(async () => {
    await client?.disconnect();
    client = undefined;
  });

  function socketClient(): SocketModeClient {
    return new SocketModeClient({
      appToken: fake.appToken,
      logLevel: LogLevel.ERROR,
      // Short, so a reconnect after `disconnect` comes within the test's time.
      clientPingTimeout: 1_000,
      clientOptions: { slackApiUrl: fake.url },
    });
  }

  test("connects with the app token, receives an events_api envelope and acknowledges it", async () => {
    client = socketClient();
    const received: unknown[] = [];
    client.on("app_mention", async ({ event, ack }) => {
      received.push(event);
      await ack();
    });
    await client.start();
    await fake.socketConnected();
    expect(fake.calls.map((call) => [call.method, call.token])).toEqual([["apps.connections.open", fake.appToken]]);
    const event = { type: "app_mention", user: "U1", text: `<@${fake.botUserId}> hi`, channel: "C1", ts: "1.000001" };
    const ack = await fake.pushEnvelope("events_api", fake.eventCallback(event));
    expect(ack.envelope_id).toMatch(/[0-9a-f-]{36}/);
    expect(received).toEqual([event]);
  });

  test("passes an interactive ack's response payload back", async () => {
    client = socketClient();
    client.on("interactive", async ({ body, ack }) => {
      await ack({ text: `pressed ${(body as { actions: { action_id: string }[] }).actions[0]!.action_id}` });
    });
    await client.start();
    const ack = await fake.pushEnvelope("interactive", { type: "block_actions", actions: [{ action_id: "approve" }] });
    expect(ack.payload).toEqual({ text: "pressed approve" });
  });

  test("an envelope nobody acknowledges fails the push instead of hanging", async () => {
    client = socketClient();
    await client.start();
    await expect(
      fake.pushEnvelope("events_api", fake.eventCallback({ type: "message" }), { timeoutMs: 300 }),
    ).rejects.toThrow(/not acknowledged/);
  });

  test("a client told to disconnect opens a new connection and keeps receiving", async () => {
    client = socketClient();
    let acked = 0;
    client.on("message", async ({ ack }) => {
      acked += 1;
      await ack();
    });
    await client.start();
    const reconnected = new Promise<void>((resolve) => client!.once("connected", () => resolve()));
    fake.requestReconnect();
    await reconnected;
    await fake.pushEnvelope("events_api", fake.eventCallback({ type: "message", text: "after", channel: "D1" }));
    expect(acked).toBe(1);
    expect(fake.calls.filter((call) => call.method === "apps.connections.open")).toHaveLength(2);
  });

  test("without a Socket Mode client, a push is refused", async () => {
    await expect(fake.pushEnvelope("events_api", {})).rejects.toThrow(/no Socket Mode client/);
  });
});

test("signSlackRequest signs as Slack does: Bolt's own verifier accepts it, and only under that secret", () => {
  const body = JSON.stringify({ type: "url_verification", challenge: "abc" });
  const headers = signSlackRequest("shh", body, 1_700_000_000);
  const verify = (secret: string) =>
    isValidSlackRequest({
      signingSecret: secret,
      body,
      headers: {
        "x-slack-signature": headers["X-Slack-Signature"]!,
        "x-slack-request-timestamp": Number(headers["X-Slack-Request-Timestamp"]),
      },
      nowMilliseconds: 1_700_000_010_000,
    });
  expect(verify("shh")).toBe(true);
  expect(verify("other")).toBe(false);
});
