// `agentfold slack manifest` and `agentfold slack doctor`, as a self-hoster runs them: a real CLI
// process against the test database, secrets set with `agentfold secret set`, Slack played by the
// fake Slack (reached through the real Slack SDK), and the events URL answered by the platform's
// own Slack route (src/testing/pack-server.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { slackBotScopes } from "@/server/slack/app-manifest";
import { zipFiles } from "@/testing/archives";
import { type PackServer, startPackServer } from "@/testing/pack-server";
import { type FakeSlack, fakeSlackDefaultScopes, startFakeSlack } from "@/testing/slack/fake-slack";
import { runCli } from "@/testing/cli-process";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-slack-cli-"));
const dataDir = path.join(scratch, "data");
const suffix = crypto.randomUUID().slice(0, 8);
const slug = `desk-${suffix}`;
const signingSecret = "8f742231b10e8888abcd99yyyzzz85a5";
let fake: FakeSlack;
let server: PackServer;
let cliEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  const team = await db.team.create({ data: { slug: `slack-cli-${suffix}`, name: "Slack CLI" } });
  for (const [agentSlug, files] of [
    [
      slug,
      {
        "bot/instructions.md": "You answer the help desk.",
        "bot/channels/slack.ts":
          'import { slackChannel } from "agentfold/channels/slack";\nexport default slackChannel({ envPrefix: "DESK" });\n',
      },
    ],
    [`plain-${suffix}`, { "bot/instructions.md": "No Slack here." }],
  ] as const) {
    const version = await createAgentVersion({
      db,
      dataDir,
      teamId: team.id,
      slug: agentSlug,
      archive: await zipFiles(files, { wrap: "desk" }),
    });
    expect(version.status, JSON.stringify(version.diagnostics)).toBe("ready");
  }
  fake = await startFakeSlack();
  server = await startPackServer({
    db,
    runtime: createRestateRuntime({ ingressUrl: inject("restateIngressUrl"), adminUrl: inject("restateAdminUrl") }),
    dataDir,
    secrets: packSecretReader({ db, key: readOrCreateSecretKey(dataDir), maxAgeMs: 0 }),
    slackApiUrl: fake.url,
  });
  cliEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AGENTFOLD_DATA_DIR: dataDir,
    AGENTFOLD_PUBLIC_URL: server.url,
    SLACK_API_URL: fake.url,
  };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
  await db.$disconnect();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const agentfold = (args: string[], stdin = "") => runCli(args, { env: cliEnv, cwd: scratch, stdin });

async function setSecret(name: string, value: string): Promise<void> {
  expect(await agentfold(["secret", "set", slug, name], value)).toMatchObject({ code: 0 });
}

const eventsUrl = () => `${server.url}/${slug}/v1/channels/slack/events`;

describe("agentfold slack manifest", () => {
  it("prints the app manifest with this installation's URLs and every scope the pack needs", {
    timeout: 60_000,
  }, async () => {
    const printed = await agentfold(["slack", "manifest", slug]);
    expect(printed.code, printed.stderr).toBe(0);
    const manifest = JSON.parse(printed.stdout);
    expect(manifest.oauth_config.scopes.bot).toEqual(slackBotScopes.map((entry) => entry.scope));
    expect(manifest.settings).toMatchObject({
      event_subscriptions: {
        request_url: eventsUrl(),
        bot_events: ["app_mention", "message.im", "message.channels", "message.groups", "message.mpim"],
      },
      interactivity: { is_enabled: true, request_url: `${server.url}/${slug}/v1/channels/slack/interactivity` },
      socket_mode_enabled: false,
    });
    expect(manifest.features.bot_user.display_name).toBe(slug);

    const socket = JSON.parse((await agentfold(["slack", "manifest", slug, "--socket-mode"])).stdout);
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(socket.settings.event_subscriptions.request_url).toBeUndefined();
  });

  it("refuses an agent without a Slack channel, and a channel it does not have", { timeout: 60_000 }, async () => {
    const plain = await agentfold(["slack", "manifest", `plain-${suffix}`]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("has no Slack channel in its active version");
    const wrong = await agentfold(["slack", "doctor", slug, "--channel", "nope"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("no Slack channel 'nope'; its Slack channels: slack");
    expect((await agentfold(["slack", "doctor"])).code).toBe(2);
  });
});

describe("agentfold slack doctor", () => {
  it("names each secret that is missing, with the command that sets it", { timeout: 60_000 }, async () => {
    const result = await agentfold(["slack", "doctor", slug]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✗ bot token: DESK_SLACK_BOT_TOKEN is not set");
    expect(result.stdout).toContain(`agentfold secret set ${slug} DESK_SLACK_BOT_TOKEN`);
    expect(result.stdout).toContain("✗ signing secret: DESK_SLACK_SIGNING_SECRET is not set");
    expect(result.stdout).toContain("– scopes: not checked");
    expect(result.stdout).toContain("✓ app token: DESK_SLACK_APP_TOKEN is not set (optional");
  });

  it("passes a good setup: the token is valid, every scope granted, the events URL verifies", {
    timeout: 60_000,
  }, async () => {
    await setSecret("DESK_SLACK_BOT_TOKEN", fake.botToken);
    await setSecret("DESK_SLACK_SIGNING_SECRET", signingSecret);
    const result = await agentfold(["slack", "doctor", slug]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`✓ bot token: valid: @agentfold (${fake.botUserId})`);
    expect(result.stdout).toContain(`✓ scopes: all ${slackBotScopes.length} scopes granted`);
    expect(result.stdout).toContain("✓ signing secret: DESK_SLACK_SIGNING_SECRET is set");
    // Reached and verified, through the platform's route; a loopback address is only a warning.
    expect(result.stdout).toContain(`! events URL: ${eventsUrl()} answers Slack's URL verification here`);
    expect(result.stdout).toContain("! interactivity URL:");
    expect(result.stdout).toMatch(/ready$/m);
    expect(fake.calls.filter((call) => call.method === "auth.test").at(-1)?.token).toBe(fake.botToken);
  });

  it("fails on missing scopes, naming each and why it is needed", { timeout: 60_000 }, async () => {
    fake.setScopes(
      fakeSlackDefaultScopes.filter((scope) => scope !== "reactions:write" && scope !== "users:read.email"),
    );
    try {
      const result = await agentfold(["slack", "doctor", slug]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("✗ scopes: missing scopes: users:read.email, reactions:write");
      expect(result.stdout).toContain("reactions:write (react to messages");
      expect(result.stdout).toContain("OAuth & Permissions → Bot Token Scopes");
      expect(result.stdout).toContain("1 check failed");
      const json = await agentfold(["slack", "doctor", slug, "--json"]);
      expect(json.code).toBe(1);
      const { checks } = JSON.parse(json.stdout) as { checks: { name: string; ok: boolean; message: string }[] };
      expect(checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(["scopes"]);
    } finally {
      fake.setScopes(fakeSlackDefaultScopes);
    }
  });

  it("checks an app token by opening a Socket Mode connection", { timeout: 60_000 }, async () => {
    await setSecret("DESK_SLACK_APP_TOKEN", fake.botToken);
    const mixedUp = await agentfold(["slack", "doctor", slug]);
    expect(mixedUp.code).toBe(1);
    expect(mixedUp.stdout).toContain("✗ app token: DESK_SLACK_APP_TOKEN: Slack answered not_allowed_token_type");
    expect(mixedUp.stdout).toContain("an app-level token (xapp-…), not the bot token");
    await setSecret("DESK_SLACK_APP_TOKEN", fake.appToken);
    const good = await agentfold(["slack", "doctor", slug]);
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toContain("✓ app token: valid: Socket Mode connections open");
    // Over Socket Mode, Slack never calls the URLs: a loopback address is no longer a concern.
    expect(good.stdout).toContain(`✓ events URL: ${eventsUrl()} answers Slack's URL verification (with Socket Mode`);
    expect(fake.calls.filter((call) => call.method === "apps.connections.open").at(-1)?.token).toBe(fake.appToken);
  });
});
