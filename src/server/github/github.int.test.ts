// The GitHub pack on the real engine (docs/integrations.md, "GitHub"): signed webhooks over real
// HTTP to the pack's route, turns in the worker, and the replies, commit statuses and banner
// posted back by the real Octokit SDKs to a fake GitHub, as a GitHub App installation (its JWT
// checked by the fake) or with a GITHUB_TOKEN. Agent code reaches GitHub through
// ctx.host.github without any GitHub secret in its sandbox.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { createKvStore } from "@/server/host-state/kv";
import type { AgentRef } from "@/server/sessions/start-session";
import { type FakeGitHub, startFakeGitHub } from "@/testing/github/fake-github";
import { githubPayloads, postGitHubWebhook } from "@/testing/github/webhooks";
import type { PackServer } from "@/testing/pack-server";
import { type Harness, has, ofType, startTurnHarness } from "@/testing/turn-harness";

const webhookSecret = "whsec-test-0123456789";
const pat = "github_pat_test_0123456789";
const appId = 4242;
const installationId = 77;
const alice = { login: "alice", id: 1001 };
const carol = { login: "carol", id: 1003 };

let fake: FakeGitHub;
let h: Harness;
let server: PackServer;
let reviewer: AgentRef;
let reviewerName: string;
let picky: AgentRef;

const hook = (agent: AgentRef) => `${server.url}/${agent.slug}/v1/channels/github/webhook`;
const pr = (options: Partial<Parameters<typeof githubPayloads.pullRequest>[0]> & { number: number }) =>
  githubPayloads.pullRequest({
    action: "opened",
    owner: "acme",
    repo: "shop",
    title: "Add checkout retries",
    sender: alice,
    headSha: "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
    installationId,
    ...options,
  });
const sessionsOf = (agent: AgentRef) => h.db.session.count({ where: { agentId: agent.id } });
const commentsOn = (number: number) => fake.comments.filter((c) => c.number === number && c.repo === "shop");
const replyTo = (number: number, text: string) =>
  waitFor(`a reply on #${number} saying "${text}"`, async () => commentsOn(number).some((c) => c.body.includes(text)), {
    timeoutMs: 30_000,
    intervalMs: 50,
  });

beforeAll(async () => {
  const keys = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  fake = await startFakeGitHub({
    app: { id: appId, publicKey: keys.publicKey, installations: { "acme/shop": installationId } },
    tokens: [pat],
  });
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), githubApiUrl: fake.url });
  server = await h.packServer();
  reviewer = await h.deploy("reviewer", {
    "bot/instructions.md": "You review pull requests.",
    "bot/channels/github.ts": `import { githubChannel } from "agentfold/channels/github";
export default githubChannel({
  botName: "review-bot",
  repos: ["acme/shop"],
  progress: { commitStatus: true, banner: true },
  context: ["Be brief and kind."],
});
`,
    "bot/tools/pr_title.ts": `import { z } from "zod";
import { defineTool } from "agentfold/tools";
export default defineTool({ description: "reads a pull request's title on GitHub", effect: "read",
  inputSchema: z.object({ number: z.number() }),
  async execute(input, ctx) {
    const { data } = await ctx.host.github.getOctokit().rest.pulls.get({ owner: "acme", repo: "shop", pull_number: input.number });
    const missing = await ctx.host.github.request("GET /repos/{owner}/{repo}/pulls/{n}", { owner: "acme", repo: "shop", n: 404 })
      .then(() => "found", (error) => error.status);
    return { title: data.title, missing, githubEnv: Object.keys(process.env).filter((name) => /github/i.test(name)) };
  } });
`,
  });
  reviewerName = (await h.db.agent.findUniqueOrThrow({ where: { id: reviewer.id } })).name;
  await h.setSecret(reviewer, "GITHUB_WEBHOOK_SECRET", webhookSecret);
  await h.setSecret(reviewer, "GITHUB_APP_ID", String(appId));
  // As GitHub hands it out: a PKCS#1 PEM.
  await h.setSecret(reviewer, "GITHUB_PRIVATE_KEY", keys.privateKey.export({ type: "pkcs1", format: "pem" }) as string);
  picky = await h.deploy("picky", {
    "bot/instructions.md": "You look at pull requests that are ready.",
    "bot/channels/github.ts": `import { defaultGitHubAuth, githubChannel } from "agentfold/channels/github";
export default githubChannel({
  async onPullRequest(ctx, pr) {
    if (pr.title === "boom") throw new Error("the handler broke");
    await ctx.host.kv.put("seen:" + pr.number, { by: ctx.sender.login, event: ctx.event, delivery: ctx.deliveryId });
    return pr.title.startsWith("WIP") ? null : { auth: defaultGitHubAuth(ctx) };
  },
});
`,
  });
  await h.setSecret(picky, "GITHUB_WEBHOOK_SECRET", webhookSecret);
  await h.setSecret(picky, "GITHUB_TOKEN", pat);
}, 180_000);

afterAll(async () => {
  await h?.close();
  await fake?.close();
});

describe("the GitHub pack, as a GitHub App", () => {
  it("answers a signed pull_request.opened with a turn, a PR comment, a pending then success status and a banner", async () => {
    const deliveryId = crypto.randomUUID();
    const sent = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      deliveryId,
      payload: pr({ number: 7, body: "Please have a look. [say: Looks good to me.]" }),
    });
    expect(sent.status).toBe(202);
    const sessionId = sent.body.sessionId as string;
    expect(sessionId).toMatch(/^ses_/);
    await replyTo(7, "Looks good to me.");
    const sha = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
    await waitFor("the success status", async () => fake.statuses.some((s) => s.state === "success"), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    expect(fake.statuses).toEqual([
      { owner: "acme", repo: "shop", sha, state: "pending", context: `agentfold/${reviewerName}` },
      { owner: "acme", repo: "shop", sha, state: "success", context: `agentfold/${reviewerName}` },
    ]);
    await waitFor("the banner to say done", async () => commentsOn(7).some((c) => c.body.includes("is done")), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    const banner = commentsOn(7).find((c) => c.body.includes("agentfold:banner"))!;
    expect(banner.edits).toBeGreaterThanOrEqual(1);
    expect(commentsOn(7)).toHaveLength(2);

    // The session is the PR's, owned by its sender; the turn's message says what happened.
    const session = await h.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({ channelId: "github", ownerKind: "user", ownerId: "github:1001" });
    const received = ofType(await h.events(sessionId), "message.received")[0]!;
    expect(received.data.text).toContain("Pull request acme/shop#7 opened by @alice: Add checkout retries");
    expect(received.data.text).toContain("https://github.com/acme/shop/pull/7");
    expect(received.data.text).toContain("Be brief and kind.");
    expect(received.data.deliveryIds).toEqual([deliveryId]);

    // The installation's token came from the App's JWT, and every post carried it.
    expect(fake.calls.filter((c) => c.path === `/app/installations/${installationId}/access_tokens`)).toHaveLength(1);
    const token = fake.issuedTokens[0]!;
    const posts = fake.calls.filter((c) => c.path.startsWith("/repos/acme/shop/"));
    expect(posts.length).toBeGreaterThanOrEqual(5);
    expect(new Set(posts.map((c) => c.authorization))).toEqual(new Set([`token ${token}`]));

    // GitHub redelivers on request: the same delivery starts nothing more.
    const again = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      deliveryId,
      payload: pr({ number: 7, body: "Please have a look. [say: Looks good to me.]" }),
    });
    expect(again).toEqual({ status: 200, body: { ok: true, ignored: `delivery ${deliveryId} was already taken` } });
    expect(ofType(await h.events(sessionId), "turn.started")).toHaveLength(1);
  }, 60_000);

  it("continues the PR's session on a push and on a person's mention, never on the bot's own comment", async () => {
    const opened = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 9, body: "[say: First look.]" }),
    });
    const sessionId = opened.body.sessionId as string;
    await replyTo(9, "First look.");
    await h.eventsUntil(sessionId, has("turn.completed"));

    const pushed = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({
        number: 9,
        action: "synchronize",
        headSha: "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2",
        body: "[say: Second look.]",
      }),
    });
    expect(pushed).toEqual({ status: 202, body: { ok: true, sessionId } });
    await replyTo(9, "Second look.");
    await h.eventsUntil(sessionId, has("turn.completed", 2));
    await waitFor("the new head's success", async () =>
      fake.statuses.some((s) => s.sha.startsWith("b2") && s.state === "success"),
    );

    const comment = (sender: { login: string; id: number }, body: string) =>
      postGitHubWebhook(hook(reviewer), {
        event: "issue_comment",
        secret: webhookSecret,
        payload: githubPayloads.comment({ owner: "acme", repo: "shop", number: 9, body, sender, installationId }),
      });
    const ignored = [
      await comment({ login: "review-bot[bot]", id: 9001 }, "@review-bot [say: talking to myself]"),
      await comment({ login: "Review-Bot", id: 9002 }, "@review-bot [say: talking to myself]"),
      await comment(carol, "Pasted: Looks good <!-- agentfold:reply --> @review-bot"),
      await comment(carol, "No mention here. [say: unasked]"),
    ];
    expect(ignored.map((answer) => [answer.status, answer.body.ignored])).toEqual([
      [200, "review-bot[bot] is the agent's own bot"],
      [200, "Review-Bot is the agent's own bot"],
      [200, "a comment Agentfold posted"],
      [200, "a comment that does not mention @review-bot (the channel has no onComment())"],
    ]);

    // A comment tells no commit: the status goes on the PR's head as GitHub says it is now.
    fake.addPull("acme", "shop", {
      number: 9,
      title: "Add checkout retries",
      head: { sha: "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3", ref: "feature" },
    });
    const asked = await comment(carol, "@review-bot what about tests? [say: Tests look fine.]");
    expect(asked).toEqual({ status: 202, body: { ok: true, sessionId } });
    await replyTo(9, "Tests look fine.");
    const log = await h.eventsUntil(sessionId, has("turn.completed", 3));
    expect(ofType(log, "message.received").map((e) => e.data.text.split("\n")[0])).toEqual([
      "Pull request acme/shop#9 opened by @alice: Add checkout retries",
      "Pull request acme/shop#9 updated with new commits by @alice: Add checkout retries",
      "@carol commented on pull request acme/shop#9 (The pull request):",
    ]);
    await waitFor("the comment turn's success", async () =>
      fake.statuses.some((s) => s.sha.startsWith("c3") && s.state === "success"),
    );
    expect(commentsOn(9).some((c) => c.body.includes("talking to myself") || c.body.includes("unasked"))).toBe(false);
    // One banner for the session, edited in place.
    expect(commentsOn(9).filter((c) => c.body.includes("agentfold:banner"))).toHaveLength(1);
  }, 90_000);

  it("lets a tool reach GitHub through ctx.host.github with the platform's token, and no GitHub secret in the sandbox", async () => {
    fake.addPull("acme", "shop", {
      number: 8,
      title: "Teach the cart to retry",
      head: { sha: "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4", ref: "cart" },
    });
    const sent = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 8, title: "Cart retries", body: '[call pr_title {"number":8}]' }),
    });
    const log = await h.eventsUntil(sent.body.sessionId as string, has("turn.completed"));
    const result = ofType(log, "action.result")[0]!;
    expect(result).toMatchObject({ data: { toolName: "pr_title", isError: false } });
    expect(result.data.output).toEqual({ title: "Teach the cart to retry", missing: 404, githubEnv: [] });
    const read = fake.calls.find((c) => c.method === "GET" && c.path === "/repos/acme/shop/pulls/8")!;
    expect(fake.issuedTokens.map((token) => `token ${token}`)).toContain(read.authorization);

    // Outside a GitHub session no webhook named the installation: the App finds the repository's.
    const direct = await h.start(reviewer, { message: '[call pr_title {"number":8}]' });
    const directLog = await h.eventsUntil(direct.sessionId, has("turn.completed"));
    expect(ofType(directLog, "action.result")[0]!.data.output).toMatchObject({ title: "Teach the cart to retry" });
    expect(fake.calls.filter((c) => c.path === "/repos/acme/shop/installation")).toHaveLength(1);
  }, 60_000);

  it("ignores drafts by default and repositories the channel does not watch", async () => {
    const before = await sessionsOf(reviewer);
    const draft = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 11, draft: true }),
    });
    expect(draft).toEqual({
      status: 200,
      body: { ok: true, ignored: "a draft pull request (the channel has no onPullRequest())" },
    });
    const elsewhere = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 12, repo: "other" }),
    });
    expect(elsewhere).toEqual({
      status: 200,
      body: { ok: true, ignored: "acme/other is not one of the channel's repos" },
    });
    const ping = await postGitHubWebhook(hook(reviewer), {
      event: "ping",
      secret: webhookSecret,
      payload: { zen: "Keep it logically awesome." },
    });
    expect(ping).toEqual({ status: 200, body: { ok: true } });
    expect(await sessionsOf(reviewer)).toBe(before);
  });

  it("refuses a bad or missing signature with 401 and starts nothing", async () => {
    const before = await sessionsOf(reviewer);
    const payload = pr({ number: 13, body: "[say: should never run]" });
    const forged = await postGitHubWebhook(hook(reviewer), {
      event: "pull_request",
      secret: "not-the-secret",
      payload,
    });
    const unsigned = await postGitHubWebhook(hook(reviewer), { event: "pull_request", payload });
    for (const answer of [forged, unsigned])
      expect(answer).toEqual({ status: 401, body: { ok: false, error: "unauthorized" } });
    expect(await sessionsOf(reviewer)).toBe(before);
    expect(commentsOn(13)).toEqual([]);
  });

  it("says which secret to set when the webhook secret is not", async () => {
    const unset = await h.deploy("unset", {
      "bot/instructions.md": "Nobody set my secret.",
      "bot/channels/github.ts": `import { githubChannel } from "agentfold/channels/github";\nexport default githubChannel({});\n`,
    });
    const answer = await postGitHubWebhook(hook(unset), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 1 }),
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ ok: false, error: "unauthorized" });
    expect(answer.body.message).toContain(`agentfold secret set ${unset.slug} GITHUB_WEBHOOK_SECRET`);
    expect(await sessionsOf(unset)).toBe(0);
  }, 60_000);
});

describe("the GitHub pack with onPullRequest and a GITHUB_TOKEN", () => {
  it("runs the handler in the sandbox: null ignores the event, { auth } starts a turn replied to with the token", async () => {
    const wip = await postGitHubWebhook(hook(picky), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 5, title: "WIP: half done", installationId: undefined }),
    });
    expect(wip).toEqual({ status: 200, body: { ok: true, ignored: "onPullRequest() returned null" } });
    expect(await sessionsOf(picky)).toBe(0);

    const deliveryId = crypto.randomUUID();
    const ready = await postGitHubWebhook(hook(picky), {
      event: "pull_request",
      secret: webhookSecret,
      deliveryId,
      payload: pr({
        number: 6,
        title: "Fix the cart",
        body: "[say: Thanks, merging soon.]",
        installationId: undefined,
      }),
    });
    expect(ready.status).toBe(202);
    await replyTo(6, "Thanks, merging soon.");
    const posted = fake.calls.find((c) => c.method === "POST" && c.path === "/repos/acme/shop/issues/6/comments")!;
    expect(posted.authorization).toBe(`token ${pat}`);
    // No progress asked for: the reply is all that is posted.
    expect(fake.calls.filter((c) => c.authorization === `token ${pat}`)).toEqual([posted]);
    // The handler ran with its ctx and ctx.host.
    expect(await createKvStore(h.db, picky.id).get("seen:6")).toEqual({
      by: "alice",
      event: "pull_request",
      delivery: deliveryId,
    });
  }, 60_000);

  it("answers 500 naming an error id when the handler throws, and leaves the delivery to be tried again", async () => {
    const before = await sessionsOf(picky);
    const deliveryId = crypto.randomUUID();
    const send = () =>
      postGitHubWebhook(hook(picky), {
        event: "pull_request",
        secret: webhookSecret,
        deliveryId,
        payload: pr({ number: 14, title: "boom", installationId: undefined }),
      });
    for (const answer of [await send(), await send()]) {
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ ok: false, error: "internal_error" });
      expect(answer.body.message).toMatch(/onPullRequest\(\) failed \(error err_[0-9a-f]+/);
    }
    expect(await sessionsOf(picky)).toBe(before);
  }, 30_000);
});

describe("deliverReplies: false", () => {
  it("posts the status but not the reply: the agent's own tools answer", async () => {
    const silent = await h.deploy("silent", {
      "bot/instructions.md": "You answer through your own tools.",
      "bot/channels/github.ts": `import { githubChannel } from "agentfold/channels/github";
export default githubChannel({ deliverReplies: false, progress: { commitStatus: true } });
`,
    });
    await h.setSecret(silent, "GITHUB_WEBHOOK_SECRET", webhookSecret);
    await h.setSecret(silent, "GITHUB_TOKEN", pat);
    const opened = await postGitHubWebhook(hook(silent), {
      event: "pull_request",
      secret: webhookSecret,
      payload: pr({ number: 41, body: "[say: Not to be posted.]", headSha: "4".repeat(40), installationId: undefined }),
    });
    expect(opened.status).toBe(202);
    const sessionId = (opened.body as { sessionId: string }).sessionId;
    await h.eventsUntil(sessionId, has("session.waiting"));
    const sha = "4".repeat(40);
    await waitFor("the success status", async () => fake.statuses.some((s) => s.sha === sha && s.state === "success"));
    expect(commentsOn(41)).toEqual([]);
  }, 60_000);
});
