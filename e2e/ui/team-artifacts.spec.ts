// Artifacts in Chromium: the model tags two records from the playground (the offline model obeys
// `[call tag_artifact …]`), each shows as a card in the transcript right after its tool call; the
// agent's Artifacts page lists them newest first with their data as a table or JSON, filters by
// kind, searches by title, downloads one and opens its session. The e2e team has no people, so the
// spec makes its own owner and an agent with two kinds (`agentfold admin create`, `deploy`), as
// memory.spec.ts does; it runs alone or after dashboard.spec.ts (its name sorts it there: keep it so).
import { deployFolder, stackCli } from "../support/stack-cli";
import { expect, test } from "../fixtures";
import { send, unlabelledControls, watchConsole } from "./page-checks";

const owner = { email: "ivy@example.test", password: "ivy-password-123" };
const teamSlug = "artifact-lab";
const slug = "ledger-desk";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await stackCli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
  const files: Record<string, string> = {
    "package.json": `{ "name": "${slug}", "private": true }\n`,
    "bot/instructions.md": "You keep the refunds ledger.\n",
    "bot/artifacts.ts": [
      'import { defineArtifacts } from "agentfold/artifacts";',
      "export default defineArtifacts({",
      '  kinds: { refund: { description: "A refund that was issued" }, note: { description: "A note for the team" } },',
      "  agentTool: true,",
      "});",
      "",
    ].join("\n"),
  };
  await deployFolder({ team: teamSlug, slug }, files);
});

const refund = { kind: "refund", key: "A-1", data: { orderId: "A-1", amount: 3 } };
const note = { kind: "note", key: "call-back", title: "Call Ada back", data: { lines: [{ sku: "mug", qty: 2 }] } };

test("a tagged record shows in the transcript and on the Artifacts page, which opens its session", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await page.goto("/signin");
  await page.getByTestId("signin-email").fill(owner.email);
  await page.getByTestId("signin-password").fill(owner.password);
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("home-agents")).toBeVisible();

  // The playground, signed in: the card follows the tag_artifact call that made it.
  await page.goto(`/${slug}/playground`);
  await send(page, `Refund it [call tag_artifact ${JSON.stringify(refund)}] [reason off]`);
  const refundCard = page.locator(
    '[data-testid="tool-chip"][data-tool="tag_artifact"] + [data-testid="artifact-card"][data-key="A-1"]',
  );
  await expect(refundCard).toHaveAttribute("data-kind", "refund");
  await expect(refundCard.getByTestId("artifact-card-title")).toHaveText("A-1");
  // Fields come back in jsonb's order (shorter keys first), not as tagged.
  await expect(refundCard.getByTestId("artifact-card-preview")).toHaveText("amount: 3 · orderId: A-1");
  await expect(refundCard.getByTestId("artifact-card-data")).toBeHidden();
  await refundCard.locator("summary").click();
  await expect(refundCard.getByTestId("artifact-data-table")).toContainText("amount3");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");

  await send(page, `Note it [call tag_artifact ${JSON.stringify(note)}] [reason off]`);
  const noteCard = page.locator('[data-testid="artifact-card"][data-key="call-back"]');
  await expect(noteCard.getByTestId("artifact-card-title")).toHaveText("Call Ada back");
  await expect(noteCard.getByTestId("artifact-card-preview")).toHaveText('{"lines":[{"qty":2,"sku":"mug"}]}');
  await expect(page.getByTestId("turn-status")).toHaveCount(2);
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  await expect(page).toHaveURL(/sessionId=ses_/);
  const sessionId = new URL(page.url()).searchParams.get("sessionId")!;

  // The Artifacts page, from the agent page: newest updated first, data as a table or JSON.
  await page.goto(`/teams/${teamSlug}/agents/${slug}`);
  await page.getByTestId("agent-artifacts").click();
  await expect(page).toHaveURL(new RegExp(`/teams/${teamSlug}/agents/${slug}/artifacts$`));
  const rows = page.getByTestId("artifact");
  await expect(rows).toHaveCount(2);
  expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-key")))).toEqual(["call-back", "A-1"]);
  const refundRow = page.locator('[data-testid="artifact"][data-key="A-1"]');
  const noteRow = page.locator('[data-testid="artifact"][data-key="call-back"]');
  await expect(refundRow).toHaveAttribute("data-session-id", sessionId);
  await expect(refundRow.getByTestId("artifact-data-table")).toHaveAttribute("data-shape", "fields");
  await expect(refundRow.getByTestId("artifact-data-table")).toContainText("orderIdA-1");
  await expect(noteRow.getByTestId("artifact-title")).toHaveText("Call Ada back");
  await expect(noteRow.getByTestId("artifact-data-table")).toHaveCount(0);
  await expect(noteRow).toContainText('"sku": "mug"');
  await page.screenshot({ path: testInfo.outputPath("artifacts-page.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);

  // Download answers the record as a JSON file, with the same cookie.
  const href = await refundRow.getByTestId("artifact-download").getAttribute("href");
  expect(href).toBe(`/${slug}/v1/artifacts/refund/A-1?download=1`);
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toContain('filename="refund-A-1.json"');
  expect(await download.json()).toMatchObject({ ...refund, sessionId });

  // Filter by a declared kind, then search by title over all kinds.
  const kindSelect = page.getByTestId("artifacts-kind");
  expect(await kindSelect.locator("option").allTextContents()).toEqual(["All kinds", "refund", "note"]);
  await kindSelect.selectOption("refund");
  await expect(rows).toHaveCount(1);
  await expect(refundRow).toBeVisible();
  await kindSelect.selectOption("note");
  await expect(rows).toHaveCount(1);
  await expect(noteRow).toBeVisible();
  await kindSelect.selectOption("");
  await expect(rows).toHaveCount(2);
  await page.getByTestId("artifacts-search").fill("ada");
  await expect(rows).toHaveCount(1);
  await expect(noteRow).toBeVisible();
  await page.getByTestId("artifacts-search").fill("nothing-like-it");
  await expect(page.getByTestId("artifacts-empty")).toContainText("No loaded record matches");
  await page.getByTestId("artifacts-search").fill("");

  // Its session opens in the playground, the cards replayed from the log in their places.
  await refundRow.getByTestId("artifact-session").click();
  await expect(page).toHaveURL(new RegExp(`/${slug}/playground\\?sessionId=${sessionId}$`));
  await expect(page.getByTestId("session-header")).toContainText(sessionId);
  await expect(page.getByTestId("artifact-card")).toHaveCount(2);
  await expect(
    page.locator('[data-testid="tool-chip"][data-tool="tag_artifact"] + [data-testid="artifact-card"]'),
  ).toHaveCount(2);
  expect(errors).toEqual([]);
});
