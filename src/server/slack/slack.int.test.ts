// The Slack pack end to end (docs/integrations.md, "Slack"): signed Events API requests and
// interactivity callbacks reach the platform over real HTTP, sessions run on the real engine, and
// replies go back through the real Slack SDK to a local fake of Slack's Web API.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { poolOf } from "@/server/db";
import type { AgentRef } from "@/server/sessions/start-session";
import { signSlackRequest, startFakeSlack, type FakeSlack } from "@/testing/slack/fake-slack";
import type { PackServer } from "@/testing/pack-server";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

const signingSecret = "8f742231b10e8888abcd99yyyzzz85a5";

let fake: FakeSlack;
let h: Harness;
let agent: AgentRef;
let server: PackServer;

const files = {
  "bot/instructions.md": "You are the desk's Slack agent.",
  "bot/channels/slack.ts": `import { slackChannel } from "agentfold/channels/slack";
export default slackChannel({ envPrefix: "DESK", toolApprovals: true, reply: { status: { tools: true, idle: ["Looking…"] } } });
`,
  "bot/channels/stream.ts": `import { slackChannel } from "agentfold/channels/slack";
export default slackChannel({ envPrefix: "DESK", reply: { mode: "stream" } });
`,
  "bot/channels/dms.ts": `import { slackChannel } from "agentfold/channels/slack";
export default slackChannel({ envPrefix: "DESK", continuation: "slack.dmthread/v2" });
`,
  "bot/tools/refund.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Refunds an order", effect: "write", needsApproval: true,
  inputSchema: z.object({ amount: z.number() }),
  async execute(input, ctx) { return { refunded: input.amount, approvedBy: ctx.approvedBy ?? null }; } });
`,
  "bot/tools/announce.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Posts to #general", effect: "write",
  inputSchema: z.object({ text: z.string() }),
  async execute(input, ctx) {
    const posted = await ctx.host.slack.getClient().chat.postMessage({ channel: "C0GENERAL", text: input.text });
    return { ok: posted.ok, tokenInSandbox: process.env.DESK_SLACK_BOT_TOKEN ?? null };
  } });
`,
};

beforeAll(async () => {
  fake = await startFakeSlack();
  h = await startTurnHarness({
    databaseUrl: inject("databaseUrl"),
    slackApiUrl: fake.url,
    // Replies arrive word by word, as a real model's do: streaming has something to grow.
    models: { scriptedChunkDelayMs: 120 },
  });
  agent = await h.deploy("desk", files);
  await h.setSecret(agent, "DESK_SLACK_BOT_TOKEN", fake.botToken);
  await h.setSecret(agent, "DESK_SLACK_SIGNING_SECRET", signingSecret);
  server = await h.packServer();
}, 120_000);

afterAll(async () => {
  await h?.close();
  await fake?.close();
});

let nextTs = 1_700_000_100;
const newTs = () => `${nextTs++}.000100`;

/** Posts an Events API body as Slack does: signed with the app's signing secret. */
async function postEvent(body: unknown, options: { channel?: string; secret?: string; timestamp?: number } = {}) {
  const text = JSON.stringify(body);
  return fetch(`${server.url}/${agent.slug}/v1/channels/${options.channel ?? "slack"}/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...signSlackRequest(options.secret ?? signingSecret, text, options.timestamp),
    },
    body: text,
  });
}

const mention = (text: string, extra: Record<string, unknown> = {}) =>
  fake.eventCallback({
    type: "app_mention",
    user: "U0ANA",
    text: `<@${fake.botUserId}> ${text}`,
    channel: "C0DESK",
    ts: newTs(),
    ...extra,
  });

const threadReply = (threadTs: string, text: string, user = "U0BEN") =>
  fake.eventCallback({
    type: "message",
    channel_type: "channel",
    user,
    text,
    channel: "C0DESK",
    ts: newTs(),
    thread_ts: threadTs,
  });

const inThread = (threadTs: string) => fake.messages.filter((message) => message.thread_ts === threadTs);

async function sessionCount(): Promise<number> {
  return h.db.session.count({ where: { agentId: agent.id } });
}

describe("the Events API", () => {
  it("answers Slack's URL verification with the challenge", async () => {
    const response = await postEvent({
      type: "url_verification",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("a mention starts a session; the reply is posted in its thread; a follow-up there continues it", async () => {
    const first = mention("[say: Hello from the desk.]");
    const threadTs = (first.event as { ts: string }).ts;
    const response = await postEvent(first);
    expect(response.status).toBe(200);
    const outcome = (await response.json()) as { kind: string; sessionId: string; isNew: boolean };
    expect(outcome).toMatchObject({ kind: "sent", isNew: true });
    await waitFor("the reply in the thread", async () => inThread(threadTs).length >= 1, { timeoutMs: 20_000 });
    expect(inThread(threadTs)[0]).toMatchObject({ channel: "C0DESK", text: "Hello from the desk." });
    const session = await h.db.session.findUniqueOrThrow({ where: { id: outcome.sessionId } });
    expect(session).toMatchObject({ channelId: "slack", ownerKind: "user", ownerId: `slack:${fake.teamId}:U0ANA` });

    // Someone else in the thread, without a mention: the same session, in the starter's name.
    const again = await postEvent(threadReply(threadTs, "[say: Still here.]"));
    expect(await again.json()).toMatchObject({ kind: "sent", sessionId: outcome.sessionId, isNew: false });
    await waitFor("the second reply", async () => inThread(threadTs).length >= 2, { timeoutMs: 20_000 });
    expect(inThread(threadTs)[1]!.text).toBe("Still here.");
    // The thread's status line was set while the turn ran, and cleared at its end.
    const statuses = () =>
      fake.calls
        .filter((call) => call.method === "assistant.threads.setStatus" && call.args.thread_ts === threadTs)
        .map((call) => call.args.status);
    await waitFor("the status line to be cleared", async () => statuses().at(-1) === "");
    expect(statuses()).toContain("is thinking…");
  });

  it("takes a retried event once", async () => {
    const body = mention("[say: Only once.]");
    const threadTs = (body.event as { ts: string }).ts;
    const [one, two] = await Promise.all([postEvent(body), postEvent(body)]);
    const outcomes = [await one.json(), await two.json()].map((o) => (o as { kind: string }).kind).sort();
    expect(outcomes).toEqual(["ignored", "sent"]);
    await waitFor("the reply", async () => inThread(threadTs).length >= 1, { timeoutMs: 20_000 });
    const sessionId = (
      await h.db.session.findFirstOrThrow({ where: { agentId: agent.id, title: "[say: Only once.]" } })
    ).id;
    expect(ofType(await h.events(sessionId), "message.received")).toHaveLength(1);
  });

  it("refuses a bad signature, another app's secret and a replayed timestamp with 401, starting nothing", async () => {
    const before = await sessionCount();
    const body = mention("[say: should not run]");
    const forged = await postEvent(body, { secret: "not-the-signing-secret" });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ ok: false, error: "unauthorized" });
    // Signed right, but 10 minutes old: a captured request sent again.
    const replayed = await postEvent(body, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(replayed.status).toBe(401);
    const unsigned = await fetch(`${server.url}/${agent.slug}/v1/channels/slack/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(unsigned.status).toBe(401);
    expect(await sessionCount()).toBe(before);
  });

  it("a whole-message stop interrupts the turn and drops what was queued behind it", async () => {
    const body = mention("[delay 20s] [say: too late]");
    const threadTs = (body.event as { ts: string }).ts;
    const { sessionId } = (await (await postEvent(body)).json()) as { sessionId: string };
    await h.eventsUntil(sessionId, has("turn.started"));
    // Queued behind the running turn (admission coalesce), then dropped by the stop.
    expect(await (await postEvent(threadReply(threadTs, "[say: queued]"))).json()).toMatchObject({ kind: "sent" });
    const { rows: queued } = await poolOf(h.db).query(`SELECT 1 FROM pending_deliveries WHERE "sessionId" = $1`, [
      sessionId,
    ]);
    expect(queued).toHaveLength(1);
    // `@agent stop` in the thread: Slack sends it as an app_mention (and a message event, ignored).
    expect(await (await postEvent(threadReply(threadTs, `<@${fake.botUserId}> stop`))).json()).toMatchObject({
      kind: "ignored",
    });
    expect(await (await postEvent(mention("stop", { thread_ts: threadTs }))).json()).toMatchObject({
      kind: "stopped",
      sessionId,
    });
    const log = await h.eventsUntil(sessionId, has("turn.failed"));
    expect(ofType(log, "turn.failed")[0]!.data.status).toBe("cancelled");
    const { rows: left } = await poolOf(h.db).query(`SELECT 1 FROM pending_deliveries WHERE "sessionId" = $1`, [
      sessionId,
    ]);
    expect(left).toHaveLength(0);
    await waitFor("the thread to hear it stopped", async () => inThread(threadTs).some((m) => m.text === "Stopped."), {
      timeoutMs: 20_000,
    });
    expect(inThread(threadTs).map((m) => m.text)).not.toContain("too late");
    expect(ofType(await h.events(sessionId), "message.received")).toHaveLength(1);
  });

  it('reply.mode "stream" grows one message with several updates, ending with the whole reply', async () => {
    const words = Array.from({ length: 45 }, (_, i) => `w${i + 1}`).join(" ");
    const body = mention(`[say: ${words}]`);
    const threadTs = (body.event as { ts: string }).ts;
    const { sessionId } = (await (await postEvent(body, { channel: "stream" })).json()) as { sessionId: string };
    await h.eventsUntil(sessionId, has("session.waiting"));
    await waitFor("the final update", async () => inThread(threadTs)[0]?.text === words, { timeoutMs: 20_000 });
    expect(inThread(threadTs)).toHaveLength(1);
    const message = inThread(threadTs)[0]!;
    expect(message.updates).toBeGreaterThanOrEqual(2);
    // Each update shows more of the reply than the last.
    for (const [i, text] of message.history.entries())
      if (i > 0) expect(text.length).toBeGreaterThan(message.history[i - 1]!.length);
  });
});

describe("direct messages", () => {
  const dm = (text: string, extra: Record<string, unknown> = {}) =>
    fake.eventCallback({
      type: "message",
      channel_type: "im",
      user: "U0CAL",
      text,
      channel: "D0CAL",
      ts: newTs(),
      ...extra,
    });

  it("one DM is one session, answered in the DM; with slack.dmthread/v2 each top-level DM is its own, answered in its thread", async () => {
    const first = (await (await postEvent(dm("[say: one]"))).json()) as { sessionId: string; isNew: boolean };
    const second = (await (await postEvent(dm("[say: two]"))).json()) as { sessionId: string; isNew: boolean };
    expect(first.isNew).toBe(true);
    expect(second).toMatchObject({ sessionId: first.sessionId, isNew: false });
    await waitFor("both replies in the DM", async () =>
      ["one", "two"].every((text) =>
        fake.messages.some((m) => m.channel === "D0CAL" && !m.thread_ts && m.text === text),
      ),
    );

    const a = (await (await postEvent(dm("[say: three]"), { channel: "dms" })).json()) as { sessionId: string };
    const b = dm("[say: four]");
    const four = (await (await postEvent(b, { channel: "dms" })).json()) as { sessionId: string };
    expect(four.sessionId).not.toBe(a.sessionId);
    const threadTs = (b.event as { ts: string }).ts;
    await waitFor("the reply in the DM's thread", async () => inThread(threadTs).some((m) => m.text === "four"));
  });
});

describe("approvals and tools", () => {
  it("Approve in Slack runs the parked call with the clicker as approver (the member with their verified email)", async () => {
    const member = await h.db.user.create({ data: { email: "ana@desk.example", name: "Ana" } });
    await h.db.membership.create({ data: { teamId: agent.teamId, userId: member.id, role: "member" } });
    fake.addUser({ id: "U0ANA", email: "ana@desk.example", isEmailConfirmed: true });
    const body = mention('[call refund {"amount":5}]');
    const threadTs = (body.event as { ts: string }).ts;
    const { sessionId } = (await (await postEvent(body)).json()) as { sessionId: string };
    await waitFor("the buttons in the thread", async () => inThread(threadTs).some((m) => m.blocks), {
      timeoutMs: 20_000,
    });
    const asking = inThread(threadTs).find((m) => m.blocks)!;
    const approve = (asking.blocks as { type: string; elements?: { action_id: string; value: string }[] }[])
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === "agentfold.approve")!;
    const payload = {
      type: "block_actions",
      user: { id: "U0ANA", team_id: fake.teamId },
      team: { id: fake.teamId },
      actions: [{ action_id: approve.action_id, value: approve.value }],
    };
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const click = (secret = signingSecret) =>
      fetch(`${server.url}/${agent.slug}/v1/channels/slack/interactivity`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...signSlackRequest(secret, form) },
        body: form,
      });
    expect((await click("forged")).status).toBe(401);
    expect((await click()).status).toBe(200);
    const log = await h.eventsUntil(sessionId, has("session.waiting"));
    const approvedBy = {
      kind: "user",
      id: member.id,
      attributes: { user_id: "U0ANA", team_id: fake.teamId, email: "ana@desk.example" },
    };
    expect(ofType(log, "action.approval_resolved")[0]!.data).toMatchObject({ decision: "approved", approvedBy });
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: { refunded: 5, approvedBy },
    });
    await waitFor("the buttons to give way to the decision", async () =>
      inThread(threadTs).some((m) => m.ts === asking.ts && m.text === "✅ Approved by <@U0ANA>"),
    );
  });

  it("ctx.host.slack's client reaches Slack with the bot token, which stays out of the sandbox", async () => {
    const body = mention('[call announce {"text":"Release at noon"}]');
    const { sessionId } = (await (await postEvent(body)).json()) as { sessionId: string };
    const log = await h.eventsUntil(sessionId, has("session.waiting"));
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: { ok: true, tokenInSandbox: null },
    });
    const posted = fake.calls.find((call) => call.method === "chat.postMessage" && call.args.channel === "C0GENERAL");
    expect(posted).toMatchObject({ token: fake.botToken, args: { text: "Release at noon" } });
  });
});

describe("Socket Mode", () => {
  it("with an app token set, the worker takes events over Slack's WebSocket and answers in the thread", async () => {
    await h.setSecret(agent, "DESK_SLACK_APP_TOKEN", fake.appToken);
    await fake.socketConnected();
    const body = mention("[say: Over the socket.]");
    const threadTs = (body.event as { ts: string }).ts;
    const ack = await fake.pushEnvelope("events_api", body);
    expect(ack.envelope_id).toBeTruthy();
    await waitFor("the reply in the thread", async () => inThread(threadTs).length >= 1, { timeoutMs: 20_000 });
    expect(inThread(threadTs)[0]!.text).toBe("Over the socket.");
  });
});
