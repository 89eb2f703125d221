// The Logs tab in Chromium against the real stack: a tool's console.log (support-desk's
// lookup_order) shows up live with its source and module, narrows to the open session, and a
// level filter hides it; the same line answers GET /<slug>/v1/logs with its session.
import { expect, test } from "../fixtures";
import { api, tokens } from "../api/client";
import { openDeskPlaygroundEachTest } from "./desk-playground";
import { send } from "./page-checks";

openDeskPlaygroundEachTest();

test("a tool's console.log shows in the Logs tab live, for its session, and over the API", async ({
  page,
}, testInfo) => {
  await page.getByTestId("raw-toggle").click();
  await page.getByTestId("side-tab-logs").click();
  const panel = page.getByTestId("logs-panel");
  await expect(panel).toBeVisible();

  // An order no other spec refunds: the line's text is the same in every run.
  await send(page, 'Check A-4242 [call lookup_order {"orderId":"A-4242"}] [reason off]');
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  const line = panel.locator('[data-testid="log-line"]', { hasText: "lookup_order A-4242: not found" });
  await expect(line).toHaveAttribute("data-source", "tool", { timeout: 5_000 });
  await expect(line).toContainText("bot/tools/lookup_order.ts");

  const shot = testInfo.outputPath("playground-logs.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("logs", { path: shot, contentType: "image/png" });

  await page.getByTestId("logs-this-session").check();
  await expect(line).toBeVisible();
  await page.getByTestId("logs-level").selectOption("error");
  await expect(line).toHaveCount(0);

  const sessionId = new URL(page.url()).searchParams.get("sessionId")!;
  const answer = await api("GET", `/desk/v1/logs?session=${sessionId}&source=tool`, { token: tokens().owner });
  expect(answer.status).toBe(200);
  expect(answer.json.lines).toContainEqual(
    expect.objectContaining({
      level: "info",
      source: "tool",
      name: "bot/tools/lookup_order.ts",
      sessionId,
      message: "lookup_order A-4242: not found",
    }),
  );
  expect((await api("GET", "/desk/v1/logs")).status).toBe(401);
});
