// The Memory and Agent files cards of an agent page in Chromium: an agent whose memory hook
// journals each turn, chatted with for real (the offline model), shows the turn in its Memory
// card and its journal among its files; an agent without the hook says how to turn memory on.
// The spec makes its own owner headless (`agentfold admin create`), so it runs alone or after
// dashboard.spec.ts, whose first account must be the instance's first.
import { deployFolder, stackCli } from "../support/stack-cli";
import { expect, test } from "../fixtures";
import { signIn, unlabelledControls, watchConsole } from "./page-checks";

test.describe.configure({ mode: "serial" });

const owner = { email: "mia@example.test", password: "mia-password-123" };
const teamSlug = "memory-lab";

const cli = stackCli;
const deploy = (slug: string, files: Record<string, string>) => deployFolder({ team: teamSlug, slug }, files);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await cli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
  await deploy("notes-desk", {
    "package.json": '{ "name": "notes-desk", "private": true }\n',
    "bot/instructions.md": "You answer questions about notes.\n",
    "bot/hooks/memory.ts": 'import { memoryHook } from "agentfold/memory";\nexport default memoryHook();\n',
    "bot/hooks/tally.ts": [
      'import { defineHook } from "agentfold/hooks";',
      "export default defineHook({",
      "  events: {",
      '    "turn.completed": async (event, ctx) =>',
      '      ctx.host.files.append("audit/turns.log", `turn done in ${event.sessionId}\\n`, { scope: "deployment" }),',
      "  },",
      "});",
      "",
    ].join("\n"),
  });
  await deploy("forgetful", {
    "package.json": '{ "name": "forgetful", "private": true }\n',
    "bot/instructions.md": "You remember nothing.\n",
  });
});

test("a turn shows in the Memory card, and its journal opens from Agent files", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/notes-desk`);
  const memory = page.getByTestId("memory");
  await expect(memory.getByTestId("memory-empty")).toBeVisible();
  await expect(memory.getByTestId("memory-off")).toHaveCount(0);

  const started = await page.request.post("/notes-desk/v1/session", {
    data: { message: "Where did I put the blue notebook? [reason off]" },
  });
  expect(started.status()).toBe(200);
  const { sessionId } = (await started.json()) as { sessionId: string };

  // Hooks run after the turn, in the worker: the entry appears within seconds.
  const row = memory.locator(`[data-testid="memory-entry"][data-session-id="${sessionId}"]`);
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByTestId("memory-message")).toContainText("Where did I put the blue notebook? [reason off]");
  await expect(row.getByTestId("memory-result")).toContainText('You said: "Where did I put the blue notebook?');
  await expect(row).toContainText("completed");
  await expect(row.getByTestId("memory-usage")).toContainText(/\d+ in · \d+ out/);
  await expect(row.getByTestId("memory-session")).toHaveAttribute(
    "href",
    `/notes-desk/playground?sessionId=${sessionId}`,
  );

  // The journal and the other hook's log are deployment files; a click shows one's text.
  const files = page.getByTestId("agent-files");
  await expect(async () => {
    await page.reload();
    await expect(files.getByTestId("agent-file-audit/turns.log")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await files.getByTestId("agent-file-memory/journal.jsonl").click();
  await expect(files.getByTestId("agent-file-text")).toContainText(`"sessionId":"${sessionId}"`);
  await files.getByTestId("agent-file-audit/turns.log").click();
  await expect(files.getByTestId("agent-file-text")).toHaveText(`turn done in ${sessionId}`);
  await page.screenshot({ path: testInfo.outputPath("agent-memory.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);
  await files.getByTestId("agent-file-close").click();
  await expect(files.getByTestId("agent-file-view")).toHaveCount(0);

  // The session link opens the turn in the playground.
  await row.getByTestId("memory-session").click();
  await expect(page.getByTestId("session-header")).toContainText(sessionId);
  expect(errors).toEqual([]);
});

test("an agent without the memory hook says how to turn memory on", async ({ page }) => {
  const errors = watchConsole(page);
  await signIn(page, owner);
  await page.goto(`/teams/${teamSlug}/agents/forgetful`);
  const off = page.getByTestId("memory").getByTestId("memory-off");
  await expect(off).toContainText("bot/hooks/memory.ts");
  await expect(off).toContainText("export default memoryHook();");
  await expect(off).toContainText("## Memory");
  await expect(page.getByTestId("agent-files")).toContainText("No files yet.");
  expect(errors).toEqual([]);
});
