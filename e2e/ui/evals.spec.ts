// Evals in Chromium, with the offline model: an agent folder with an eval is deployed; its
// playground's Evals tab lists it, runs it and shows it running, then passed, with each assertion
// and a link that opens the eval session (listed with an "eval" badge). A chat turned into a draft
// with "Save as eval" is downloaded, deployed as the next version, and passes when run, alone and
// with the rest. The agent page then charts the pass rate per case across the two versions (or
// the three runs) and compares two chosen runs, case by case, with their trajectories. The
// spec makes its own owner headless (`agentfold admin create`), so it runs alone or after
// dashboard.spec.ts, whose first account must be the instance's first.
import fs from "node:fs";
import path from "node:path";
import { deployFolder, stackCli } from "../support/stack-cli";
import { expect, test } from "../fixtures";
import { send, signIn, unlabelledControls, watchConsole } from "./page-checks";

test.describe.configure({ mode: "serial" });

const owner = { email: "eve@example.test", password: "eve-password-123" };
const teamSlug = "evals-lab";
const slug = "eval-desk";

const folder: Record<string, string> = {
  "package.json": '{ "name": "eval-desk", "private": true }\n',
  "bot/instructions.md": "You answer questions about orders.\n",
  "bot/tools/lookup.ts": [
    'import { defineTool } from "agentfold/tools";',
    'import { z } from "zod";',
    "export default defineTool({",
    '  description: "Looks an order up by its id.",',
    "  inputSchema: z.object({ id: z.string() }),",
    '  effect: "read",',
    '  execute: async ({ id }) => ({ id, status: "shipped" }),',
    "});",
    "",
  ].join("\n"),
  "evals/desk.eval.ts": [
    'import { defineEval, includes } from "agentfold/evals";',
    "export default defineEval({",
    '  tags: ["smoke"],',
    "  cases: [",
    "    {",
    '      id: "greets",',
    "      test: async (t) => {",
    // The delay keeps the case running long enough to be seen running.
    '        await t.send("Hi [say: Hello from the desk] [delay 3s] [reason off]");',
    "        t.succeeded();",
    '        t.check(t.reply, includes("Hello from the desk"));',
    "      },",
    "    },",
    "    {",
    '      id: "looks-up",',
    "      test: async (t) => {",
    '        await t.send(\'Where is A-1? [call lookup {"id":"A-1"}] [reason off]\');',
    "        t.succeeded();",
    '        t.calledTool("lookup");',
    "      },",
    "    },",
    "  ],",
    "});",
    "",
  ].join("\n"),
};
let draft = { path: "", source: "" };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await stackCli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
  await deployFolder({ team: teamSlug, slug }, folder);
});

test("the Evals tab runs an eval live, shows each assertion, and opens its session", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/${slug}/playground`);
  await page.getByTestId("raw-toggle").click();
  await page.getByTestId("side-tab-evals").click();
  const panel = page.getByTestId("evals-panel");
  const item = panel.locator('[data-testid="eval"][data-eval-id="desk"]');
  await expect(item).toContainText("smoke");
  await expect(item.getByTestId("eval-case-item")).toHaveText([/desk\/greets/, /desk\/looks-up/]);
  await expect(panel.getByTestId("eval-runs-empty")).toBeVisible();

  await item.getByRole("button", { name: "Run desk", exact: true }).click();
  const run = panel.getByTestId("eval-run");
  // Seen running first, from the run's stream, then finished without a reload.
  await expect(run).toHaveAttribute("data-status", "running", { timeout: 15_000 });
  const greets = run.locator('[data-testid="eval-result"][data-case-id="desk/greets"]');
  await expect(greets).toHaveAttribute("data-status", "running", { timeout: 15_000 });
  await expect(run).toHaveAttribute("data-status", "passed", { timeout: 60_000 });
  await expect(run.getByTestId("eval-run-counts")).toContainText("2/2 passed");
  await expect(greets).toHaveAttribute("data-status", "passed");
  await expect(greets.getByTestId("eval-pass-rate")).toHaveText("1/1 passed");
  await expect(greets.getByTestId("eval-assertion")).toHaveCount(2);
  await expect(greets.locator('[data-testid="eval-assertion"][data-pass="true"]')).toHaveCount(2);
  await expect(greets.locator('[data-testid="eval-assertion"][data-kind="check"]')).toContainText(
    "Hello from the desk",
  );
  const looksUp = run.locator('[data-testid="eval-result"][data-case-id="desk/looks-up"]');
  await expect(looksUp.locator('[data-testid="eval-assertion"][data-kind="calledTool"]')).toContainText(
    "called lookup",
  );
  await page.screenshot({ path: testInfo.outputPath("evals-tab.png") });
  expect(await unlabelledControls(page)).toEqual([]);

  // The session link opens the eval session beside the tab; the list marks it as an eval.
  const link = looksUp.getByTestId("eval-session-link");
  const sessionId = await link.getAttribute("data-session-id");
  await link.click();
  await expect(page).toHaveURL(new RegExp(`sessionId=${sessionId}`));
  await expect(page.getByTestId("session-header")).toContainText(sessionId!);
  await expect(page.getByTestId("session-header").getByTestId("session-purpose-eval")).toBeVisible();
  await expect(page.getByTestId("message-user").first()).toContainText("Where is A-1?");
  const row = page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"]`);
  await expect(row.getByTestId("session-eval-badge")).toBeVisible();
  expect(errors).toEqual([]);
});

test("Save as eval drafts a chat, and the draft deployed as the next version passes", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/${slug}/playground`);
  await send(page, 'Check A-7 [call lookup {"id":"A-7"}] [reason off]');
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed", { timeout: 30_000 });

  await page.getByTestId("save-as-eval").click();
  const dialog = page.getByTestId("eval-draft");
  await expect(dialog.getByTestId("eval-draft-path")).toHaveText(/^evals\/[a-z0-9-]+\.eval\.ts$/);
  const source = dialog.getByTestId("eval-draft-source");
  await expect(source).toContainText('await t.send("Check A-7 [call lookup {\\"id\\":\\"A-7\\"}] [reason off]");');
  await expect(source).toContainText('t.calledTool("lookup");');
  await expect(source).toContainText('t.check(t.reply, includes("The lookup tool returned:"));');
  await page.screenshot({ path: testInfo.outputPath("eval-draft.png") });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByTestId("eval-draft-download").click(),
  ]);
  draft = { path: (await dialog.getByTestId("eval-draft-path").textContent())!, source: "" };
  expect(download.suggestedFilename()).toBe(path.basename(draft.path));
  // Not as .ts: the type check of the project would pick it up from test-results/.
  const file = testInfo.outputPath(`${download.suggestedFilename()}.txt`);
  await download.saveAs(file);
  draft.source = fs.readFileSync(file, "utf8");
  expect(draft.source).toBe(await source.textContent());

  // The downloaded file, saved in the folder as is: it bundles, and it passes.
  await deployFolder({ team: teamSlug, slug }, { ...folder, [draft.path]: draft.source });
  const draftId = draft.path.replace(/^evals\/|\.eval\.ts$/g, "");
  await page.reload();
  await page.getByTestId("raw-toggle").click();
  await page.getByTestId("side-tab-evals").click();
  const panel = page.getByTestId("evals-panel");
  const item = panel.locator(`[data-testid="eval"][data-eval-id="${draftId}"]`);
  await item.getByRole("button", { name: `Run ${draftId}`, exact: true }).click();
  const run = panel.getByTestId("eval-run");
  await expect(run).toHaveAttribute("data-status", "passed", { timeout: 60_000 });
  await expect(run.getByTestId("eval-result")).toHaveCount(1);
  const firstRunId = await run.getAttribute("data-run-id");

  await panel.getByTestId("evals-run-all").click();
  await expect(run).not.toHaveAttribute("data-run-id", firstRunId!);
  await expect(run).toHaveAttribute("data-status", "passed", { timeout: 60_000 });
  await expect(run.getByTestId("eval-run-counts")).toContainText("3/3 passed");
  await expect(run.locator(`[data-testid="eval-result"][data-case-id="${draftId}"]`)).toHaveAttribute(
    "data-status",
    "passed",
  );
  expect(errors).toEqual([]);
});

test("the agent page charts each case's pass rate across versions and compares two runs", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/${slug}`);
  const history = page.getByTestId("eval-history");
  // Newest first: all three cases on v2, the draft alone on v2, the desk's two cases on v1.
  const runs = history.getByTestId("eval-history-run");
  await expect(runs).toHaveCount(3);
  const chart = history.getByTestId("eval-chart");
  await expect(chart).toHaveAttribute("data-points", "2");
  await expect(chart).toHaveAttribute("data-cases", "3");
  // recharts drew one line per case, and the legend names them.
  await expect(chart.locator("path.recharts-line-curve")).toHaveCount(3);
  await expect(chart.locator(".recharts-legend-item")).toHaveCount(3);
  await history.getByTestId("eval-chart-by-run").click();
  await expect(chart).toHaveAttribute("data-points", "3");

  // By default the newest run (B) against the one before it (A): the desk's cases are new in B.
  const draftId = draft.path.replace(/^evals\/|\.eval\.ts$/g, "");
  const compare = history.getByTestId("eval-compare");
  const caseRow = (id: string) => compare.locator(`[data-testid="eval-compare-case"][data-case-id="${id}"]`);
  await expect(caseRow(draftId)).toHaveAttribute("data-direction", "same");
  await expect(caseRow("desk/greets")).toHaveAttribute("data-direction", "added");

  // A = the first run, on v1: now the draft's case is the new one, and the rest compare, each
  // with its trajectory read from its eval session.
  await runs.nth(2).getByTestId("eval-history-pick-a").check();
  await expect(caseRow(draftId)).toHaveAttribute("data-direction", "added");
  const looksUp = caseRow("desk/looks-up");
  await expect(looksUp).toHaveAttribute("data-direction", "same");
  await expect(looksUp.getByTestId("eval-compare-a").getByTestId("eval-trajectory-tools")).toHaveText("lookup");
  await expect(looksUp.getByTestId("eval-compare-b").getByTestId("eval-trajectory-tools")).toHaveText("lookup");
  await expect(looksUp.getByTestId("eval-compare-b").getByTestId("eval-trajectory-time")).toHaveText(/\d/);
  const greets = caseRow("desk/greets");
  await expect(greets.getByTestId("eval-compare-a").getByTestId("eval-trajectory-tools")).toHaveText("no tool calls");
  // The case's [delay 3s] shows in its wall time.
  await expect(greets.getByTestId("eval-compare-a").getByTestId("eval-trajectory-time")).toHaveText(/^[3-9]\.\d s$/);
  await page.screenshot({ path: testInfo.outputPath("eval-history.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);

  // A run started elsewhere (here a request of the page's own, as the CLI's would be) appears
  // without a reload, running, and finishes in place: the card reads the runs again meanwhile.
  const started = await page.evaluate(async (agent) => {
    const response = await fetch(`/${agent}/v1/dev/evals`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // 24 runs of a 3 s case, 4 at a time: running for longer than the card's 10 s idle read.
      body: JSON.stringify({ ids: ["desk/greets"], iterations: 24 }),
    });
    return (await response.json()) as { runId: string };
  }, slug);
  const newest = runs.first();
  await expect(runs).toHaveCount(4, { timeout: 15_000 });
  await expect(newest).toHaveAttribute("data-run-id", started.runId);
  await expect(newest).toHaveAttribute("data-status", "running");
  await expect(newest).toHaveAttribute("data-status", "passed", { timeout: 60_000 });
  expect(errors).toEqual([]);
});
