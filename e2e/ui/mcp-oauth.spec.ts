// Connect in Chromium: an agent whose MCP connection needs OAuth parks its playground turn with a
// Connect card; the person clicks Connect, allows access on the provider's page (a local OAuth 2.1
// server with the MCP server it protects, written with the SDK), the provider sends them back to
// the platform's callback, and the parked turn goes on to call the server's tool. The spec makes
// its own owner headless (`agentfold admin create`), so it runs alone or after dashboard.spec.ts.
import { startOAuthMcpServer, type OAuthMcpServer } from "../../src/testing/mcp/oauth-mcp-server";
import { expect, test } from "../fixtures";
import { e2eOAuthMcpPort } from "../support/ports";
import { deployFolder, stackCli } from "../support/stack-cli";
import { signIn, watchConsole } from "./page-checks";

test.describe.configure({ mode: "serial" });

const owner = { email: "oli@example.test", password: "oli-password-123" };
const teamSlug = "oauth-lab";
let provider: OAuthMcpServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  provider = await startOAuthMcpServer({ port: e2eOAuthMcpPort });
  await stackCli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
  await deployFolder(
    { team: teamSlug, slug: "crm-desk" },
    {
      "package.json": '{ "name": "crm-desk", "private": true }\n',
      "bot/instructions.md": "You look customers up in the CRM.\n",
      "bot/mcp-connections/crm.ts": [
        'import { defineConnection } from "agentfold/connections";',
        `export default defineConnection({ url: "${provider.url}", oauth: true, advertiseTools: true });`,
        "",
      ].join("\n"),
    },
  );
});

test.afterAll(async () => {
  await provider?.close();
});

test("Connect completes the provider's sign-in and the parked turn goes on", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto("/crm-desk/playground");
  await page.getByTestId("composer").fill("Who am I? [call crm__whoami {}] [reason off]");
  await page.getByTestId("composer").press("Enter");

  const card = page.locator('[data-testid="connection-auth"][data-connection="crm"]');
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath("connect-card.png") });
  const opened = page.waitForEvent("popup");
  await card.getByRole("link", { name: "Connect crm" }).click();
  const popup = await opened;
  await popup.getByRole("button", { name: "Allow" }).click();
  // The provider sends the browser back to the platform's callback, which says so.
  await expect(popup.getByRole("heading", { name: "Connected crm" })).toBeVisible();
  await popup.close();

  await expect(card).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
  await expect(card.getByTestId("connection-auth-outcome")).toHaveText(/Connected/);
  await expect(page.getByText(/The crm__whoami tool returned: .*client /)).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});

test("the agent page lists the connection as connected, and Disconnect forgets it", async ({ page }) => {
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/crm-desk`);
  const row = page.locator('[data-testid="agent-connection"][data-connection="crm"]');
  await expect(row).toHaveAttribute("data-auth", "connected");
  await expect(row).toContainText(provider.url);
  await row.getByRole("button", { name: "Disconnect crm" }).click();
  await expect(row).toHaveAttribute("data-auth", "not_connected");
  await expect(row).toContainText("not connected");
  expect(errors).toEqual([]);
});
