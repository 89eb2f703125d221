// The Slack setup card in Chromium: an agent with a Slack channel shows, on its page, the URLs to
// give Slack, which of its Slack secrets are set, and the app manifest to copy; the admin sets the
// secrets in the Secrets panel and runs the doctor, which checks them against Slack — the fake
// Slack global setup started as the stack's SLACK_API_URL, reached through the real Slack SDK. The
// spec makes its own owner headless (`agentfold admin create`), so it runs alone or after
// dashboard.spec.ts.
import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { deployFolder, stackCli } from "../support/stack-cli";
import { signIn, watchConsole } from "./page-checks";
import { slackBotScopes } from "../../src/server/slack/app-manifest";

test.describe.configure({ mode: "serial" });

const owner = { email: "sam@example.test", password: "sam-password-123" };
const teamSlug = "slack-lab";
const slug = "slack-desk";
const everyScope = slackBotScopes.map(({ scope }) => scope);

/** What the Slack app's token is granted, through the fake's control endpoint. */
async function grantScopes(scopes: string[]): Promise<void> {
  const control = new URL("/_control/scopes", process.env.AGENTFOLD_E2E_SLACK_URL).toString();
  const response = await fetch(control, { method: "POST", body: JSON.stringify({ scopes }) });
  expect(response.status).toBe(200);
}

async function setSecret(page: Page, name: string, value: string): Promise<void> {
  const panel = page.getByTestId("secrets");
  await panel.getByTestId("secret-name").fill(name);
  await panel.getByTestId("secret-value").fill(value);
  await panel.getByTestId("secret-save").click();
  await expect(panel.getByTestId("secret-saved")).toHaveText(`${name} saved`);
}

async function runDoctor(page: Page) {
  const card = page.getByTestId("slack-setup");
  await card.getByTestId("slack-doctor-run").click();
  await expect(card.getByTestId("slack-doctor-run")).toBeEnabled();
  return (name: string) => card.locator(`[data-testid="slack-check"][data-check="${name}"]`);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await grantScopes(everyScope);
  await stackCli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
  await deployFolder(
    { team: teamSlug, slug },
    {
      "package.json": `{ "name": "${slug}", "private": true }\n`,
      "bot/instructions.md": "You answer the help desk in Slack.\n",
      "bot/channels/slack.ts": [
        'import { slackChannel } from "agentfold/channels/slack";',
        'export default slackChannel({ envPrefix: "DESK" });',
        "",
      ].join("\n"),
    },
  );
});

test.afterAll(async () => {
  await grantScopes(everyScope);
});

test("the card shows the URLs, the secrets to set and the manifest to copy", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/${slug}`);
  const card = page.getByTestId("slack-setup");
  await expect(card).toHaveAttribute("data-channel", "slack");
  const eventsUrl = `${baseURL}/${slug}/v1/channels/slack/events`;
  await expect(card.getByTestId("slack-events-url")).toHaveText(eventsUrl);
  await expect(card.getByTestId("slack-interactivity-url")).toHaveText(
    `${baseURL}/${slug}/v1/channels/slack/interactivity`,
  );
  const secret = (name: string) => card.locator(`[data-testid="slack-secret"][data-secret="${name}"]`);
  await expect(secret("DESK_SLACK_BOT_TOKEN")).toHaveAttribute("data-state", "missing");
  await expect(secret("DESK_SLACK_SIGNING_SECRET")).toContainText("missing");
  await expect(secret("DESK_SLACK_APP_TOKEN")).toContainText("optional: Socket Mode");

  await card.getByText("App manifest").click();
  await expect(card.getByTestId("slack-manifest")).toContainText(`"request_url": "${eventsUrl}"`);
  await card.getByTestId("slack-manifest-copy").click();
  await expect(card.getByTestId("slack-manifest-copy")).toHaveText("Copied");
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.oauth_config.scopes.bot).toEqual(everyScope);
  expect(copied.settings.event_subscriptions.bot_events).toContain("app_mention");
  expect(errors).toEqual([]);
});

test("the doctor names what is missing, then passes once the secrets are set", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/${slug}`);
  const card = page.getByTestId("slack-setup");

  let check = await runDoctor(page);
  await expect(check("bot token")).toHaveAttribute("data-status", "fail");
  await expect(check("bot token")).toContainText("DESK_SLACK_BOT_TOKEN is not set");
  await expect(check("signing secret")).toHaveAttribute("data-status", "fail");

  await setSecret(page, "DESK_SLACK_BOT_TOKEN", process.env.AGENTFOLD_E2E_SLACK_BOT_TOKEN!);
  await setSecret(page, "DESK_SLACK_SIGNING_SECRET", "e2e-signing-secret");
  await expect(card.locator('[data-testid="slack-secret"][data-secret="DESK_SLACK_BOT_TOKEN"]')).toHaveAttribute(
    "data-state",
    "set",
  );
  check = await runDoctor(page);
  await expect(check("bot token")).toHaveAttribute("data-status", "pass");
  await expect(check("bot token")).toContainText("valid: @agentfold");
  await expect(check("scopes")).toHaveAttribute("data-status", "pass");
  await expect(check("signing secret")).toHaveAttribute("data-status", "pass");
  // The web process posted a signed URL verification to its own route and got the challenge back;
  // a loopback address is a warning (Slack cannot reach it), not a failure.
  await expect(check("events URL")).toHaveAttribute("data-status", "warn");
  await expect(check("events URL")).toContainText("answers Slack's URL verification");
  await expect(card.locator('[data-testid="slack-check"][data-status="fail"]')).toHaveCount(0);
  await card.screenshot({ path: testInfo.outputPath("slack-card.png") });
  expect(errors).toEqual([]);
});

test("a scope the Slack app lacks is a clear failure that names it", async ({ page }) => {
  const errors = watchConsole(page);
  await grantScopes(everyScope.filter((scope) => scope !== "reactions:write"));
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/${slug}`);
  const check = await runDoctor(page);
  await expect(check("bot token")).toHaveAttribute("data-status", "pass");
  await expect(check("scopes")).toHaveAttribute("data-status", "fail");
  await expect(check("scopes")).toContainText("missing scope: reactions:write");
  await expect(check("scopes")).toContainText("OAuth & Permissions → Bot Token Scopes");
  expect(errors).toEqual([]);
});
