// The doctor's verdicts where a setup goes wrong past the secrets (the CLI's integration test
// covers those and a good setup): a URL that answers something else, or nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type FakeSlack, startFakeSlack } from "@/testing/slack/fake-slack";
import { type SlackDoctorInput, slackDoctor } from "./doctor";

let fake: FakeSlack;
let site: http.Server;
let siteUrl = "";
const answers = new Map<string, { status: number; body: unknown }>();

beforeAll(async () => {
  fake = await startFakeSlack();
  site = http.createServer((request, response) => {
    const answer = answers.get(request.url ?? "") ?? {
      status: 404,
      body: { ok: false, error: "not_found", message: "no agent 'desk'" },
    };
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

const input = (fields: Partial<SlackDoctorInput>): SlackDoctorInput => ({
  slug: "desk",
  names: {
    botToken: "DESK_SLACK_BOT_TOKEN",
    signingSecret: "DESK_SLACK_SIGNING_SECRET",
    appToken: "DESK_SLACK_APP_TOKEN",
  },
  botToken: fake.botToken,
  signingSecret: "secret",
  slackApiUrl: fake.url,
  eventsUrl: `${siteUrl}/desk/v1/channels/slack/events`,
  interactivityUrl: `${siteUrl}/desk/v1/channels/slack/interactivity`,
  ...fields,
});

const byName = (checks: Awaited<ReturnType<typeof slackDoctor>>) => Object.fromEntries(checks.map((c) => [c.name, c]));

test("a URL that reaches some other server fails, saying what it answered", async () => {
  const checks = byName(await slackDoctor(input({})));
  expect(checks["events URL"]).toMatchObject({
    ok: false,
    message: expect.stringContaining("answered 404: no agent 'desk'"),
  });
  expect(checks["interactivity URL"]).toMatchObject({ ok: false, status: "fail" });
  expect(checks["bot token"]).toMatchObject({ ok: true, status: "pass" });
});

test("an events URL that refuses our signature points at another installation", async () => {
  answers.set("/desk/v1/channels/slack/events", { status: 401, body: { ok: false, error: "unauthorized" } });
  const checks = byName(await slackDoctor(input({})));
  expect(checks["events URL"]).toMatchObject({
    ok: false,
    message: expect.stringContaining("refused a request signed with DESK_SLACK_SIGNING_SECRET"),
    fix: expect.stringContaining("AGENTFOLD_PUBLIC_URL"),
  });
  answers.clear();
});

test("an address nothing listens on is unreachable; a public http address warns that Slack wants https", async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const checks = byName(await slackDoctor(input({ eventsUrl: `http://127.0.0.1:${port}/e` })));
  expect(checks["events URL"]).toMatchObject({
    ok: false,
    message: expect.stringContaining("is not reachable from this host"),
  });

  answers.set("/i", { status: 405, body: { ok: false, error: "method_not_allowed" } });
  // A public name resolved to the local site: what Slack sees is the name and the scheme.
  const publicFetch: typeof fetch = (url, init) =>
    fetch(String(url).replace("http://agents.example.com", siteUrl), init);
  const viaName = byName(
    await slackDoctor(input({ interactivityUrl: "http://agents.example.com/i" }), { fetch: publicFetch }),
  );
  expect(viaName["interactivity URL"]).toMatchObject({
    ok: true,
    status: "warn",
    message: expect.stringContaining("Slack sends requests to https addresses only"),
  });
  answers.clear();
});

test("Slack's refusal of a token is reported in Slack's words", async () => {
  const checks = byName(await slackDoctor(input({ botToken: "xoxb-revoked" })));
  expect(checks["bot token"]).toMatchObject({
    ok: false,
    message: "DESK_SLACK_BOT_TOKEN: Slack answered invalid_auth",
  });
  expect(checks.scopes).toMatchObject({ status: "skip", message: "not checked: needs a valid bot token" });
  const unreachable = byName(await slackDoctor(input({ slackApiUrl: "http://127.0.0.1:9/api/" })));
  expect(unreachable["bot token"]).toMatchObject({
    ok: false,
    message: expect.stringContaining("could not reach Slack"),
  });
});
