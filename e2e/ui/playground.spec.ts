// The playground in Chromium against the real stack, authenticated only through the navbar's
// token field: streaming, tool chips, reload mid-turn, Stop, approvals across a reload, the raw
// events pane and ?sessionId= deep links. Any console error or page error fails the test.
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "../fixtures";
import { openDeskPlaygroundEachTest } from "./desk-playground";
import { send } from "./page-checks";

const slug = "desk";

test.describe.configure({ mode: "serial" });

const seen = openDeskPlaygroundEachTest(slug);

async function sessionIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(/sessionId=ses_/);
  return new URL(page.url()).searchParams.get("sessionId")!;
}

async function snap(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`playground-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

test("a message streams a reply and a tool chip; a follow-up continues the session; raw events list it all", async ({
  page,
}, testInfo) => {
  await expect(page.getByText("Start a conversation")).toBeVisible();
  await send(page, 'Where is my order? [call lookup_order {"orderId":"A-1002"}]');
  const chip = page.locator('[data-testid="tool-chip"][data-tool="lookup_order"]');
  await expect(chip).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("message-assistant").last()).toContainText("The lookup_order tool returned");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  await expect(page.getByTestId("reasoning").first()).toBeVisible();

  await chip.locator("summary").click();
  await expect(chip).toContainText('"orderId": "A-1002"');
  await expect(chip).toContainText('"found": true');

  await send(page, "Thanks [reason off]");
  await expect(page.getByTestId("message-assistant").last()).toContainText('You said: "Thanks"');
  await expect(page.getByTestId("turn-status")).toHaveCount(2);

  await page.getByTestId("raw-toggle").click();
  const raw = page.getByTestId("raw-events");
  await expect(raw.locator('[data-type="message.received"]')).toHaveCount(2);
  await expect(raw.locator('[data-type="action.result"]')).toHaveCount(1);
  await expect(raw.locator('[data-type="turn.completed"]')).toHaveCount(2);
  // The reply arrived as deltas, not in one piece.
  expect(await raw.locator('[data-type="message.appended"]').count()).toBeGreaterThan(2);
  await snap(page, testInfo, "chat");

  const id = await sessionIdOf(page);
  await expect(page.getByTestId("session-list").locator(`[data-session-id="${id}"]`)).toBeVisible();
  await expect(page.getByTestId("session-header")).toContainText(id);
  await expect(page.getByTestId("stream-status")).toHaveAttribute("data-status", "live");
});

test("a reload mid-turn reconnects and the turn continues without duplicated text", async ({ page }, testInfo) => {
  // Every model step waits 3 s: the reload lands after step one's text and tool call, before step two.
  await send(page, 'Check A-1002 [delay 3s] [call lookup_order {"orderId":"A-1002"}] [reason off]');
  await expect(page.locator('[data-testid="tool-chip"][data-tool="lookup_order"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "running");
  await page.reload();

  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  const replies = page.getByTestId("message-assistant");
  await expect(replies).toHaveText([/^Calling lookup_order/, /^The lookup_order tool returned: .*A-1002/]);
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await expect(page.getByTestId("tool-chip")).toHaveCount(1);
  await snap(page, testInfo, "after-reload");
});

test("Stop cancels a long turn and says so", async ({ page }, testInfo) => {
  await send(page, "Take your time [delay 60s]");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "running");
  await page.getByTestId("stop").click();
  const status = page.getByTestId("turn-status").last();
  await expect(status).toHaveAttribute("data-state", "cancelled");
  await expect(status).toContainText("Cancelled");
  await expect(page.getByTestId("stop")).toHaveCount(0);
  await snap(page, testInfo, "stopped");
});

test("a parked refund survives a reload, is approved, and shows its result and who decided", async ({
  page,
}, testInfo) => {
  await send(page, 'Refund it please [call issue_refund {"orderId":"A-1001","reason":"arrived broken"}]');
  const chip = page.locator('[data-testid="tool-chip"][data-tool="issue_refund"]');
  await expect(chip.getByTestId("approve")).toBeVisible();
  await expect(chip.getByTestId("approval-pending")).toContainText('"reason": "arrived broken"');
  await expect(page.getByTestId("turn-status").last()).toContainText("Waiting for a decision");
  await snap(page, testInfo, "approval-pending");

  await page.reload();
  await expect(chip.getByTestId("approve")).toBeVisible();
  await expect(chip.getByTestId("deny")).toBeVisible();
  await chip.getByTestId("approve").click();

  await expect(chip).toHaveAttribute("data-state", "done");
  await expect(chip.getByTestId("approval-decided")).toContainText("Approved by owner");
  await expect(chip.getByTestId("approve")).toHaveCount(0);
  await chip.locator("summary").click();
  await expect(chip).toContainText('"refunded": "A-1001"');
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await snap(page, testInfo, "approved");
});

test("a subagent's call nests inside the task chip that started it", async ({ page }, testInfo) => {
  await send(page, 'Escalate [subagent escalation [call lookup_order {"orderId":"A-1002"}]]');
  const task = page.locator('[data-testid="tool-chip"][data-tool="task"]');
  await expect(task).toHaveAttribute("data-state", "done");
  await expect(task).toContainText("escalation");
  await expect(task.locator('[data-testid="tool-chip"][data-tool="lookup_order"]')).toHaveAttribute(
    "data-state",
    "done",
  );
  await expect(page.getByTestId("tool-chip")).toHaveCount(2);
  await task.locator("summary").first().click();
  await expect(task).toContainText("Subagent result");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  await snap(page, testInfo, "subagent");
});

test("a reminder the agent sets shows on the session and can be cancelled", async ({ page }) => {
  await send(page, "Follow up later [remind 1h: Check on order A-1001] [reason off]");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  const reminder = page.getByTestId("reminder");
  await expect(reminder).toContainText("Check on order A-1001");
  await reminder.getByRole("button", { name: "Cancel reminder" }).click();
  await expect(page.getByTestId("reminder")).toHaveCount(0);
});

test("a ?sessionId= deep link and Enter on an id in the search box open a session", async ({ page }, testInfo) => {
  await send(page, "Remember this [reason off]");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  const id = await sessionIdOf(page);

  await page.getByTestId("new-chat").click();
  await expect(page).not.toHaveURL(/sessionId=/);
  await expect(page.getByTestId("message-user")).toHaveCount(0);

  await page.goto(`/${slug}/playground?sessionId=${id}`);
  await expect(page.getByTestId("message-user")).toHaveText(["Remember this [reason off]"]);
  await expect(page.getByTestId("message-assistant")).toContainText('You said: "Remember this"');

  // Another tab has the token field's token but not the continuation token (sessionStorage is
  // per tab): sending there takes the session over, and the first tab's next send says so.
  const otherTab = await page.context().newPage();
  otherTab.on("console", (message) => message.type() === "error" && seen.errors.push(`other tab: ${message.text()}`));
  otherTab.on("pageerror", (error) => seen.errors.push(`other tab: ${error.message}`));
  await otherTab.goto(`/${slug}/playground?sessionId=${id}`);
  await expect(otherTab.getByTestId("message-assistant")).toContainText('You said: "Remember this"');
  await send(otherTab, "Continued in another tab [reason off]");
  await expect(otherTab.getByTestId("message-assistant").last()).toContainText('You said: "Continued in another tab"');
  await otherTab.close();
  await page.getByTestId("composer").fill("Back here [reason off]");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByText("Another tab or client continued this session since")).toBeVisible();
  // That refused send is the point of this step; Chromium logs every 4xx it receives.
  const expected = seen.errors.filter((line) => line.includes("409 (Conflict)"));
  expect(expected).toHaveLength(1);
  seen.errors = seen.errors.filter((line) => !expected.includes(line));
  await send(page, "Back here [reason off]");
  await expect(page.getByTestId("message-assistant").last()).toContainText('You said: "Back here"');

  await page.getByTestId("new-chat").click();
  await page.getByTestId("session-search").fill(id);
  await page.getByTestId("session-search").press("Enter");
  await expect(page).toHaveURL(new RegExp(`sessionId=${id}`));
  await expect(page.getByTestId("message-user")).toHaveCount(3);
  await expect(page.getByTestId("session-list").getByTestId("session-item")).toHaveCount(1);
  await snap(page, testInfo, "deep-link");
  await page.emulateMedia({ colorScheme: "dark" });
  await snap(page, testInfo, "deep-link-dark");
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId("session-list")).toBeHidden();
  await page.getByRole("button", { name: "Show or hide the sessions list" }).click();
  await expect(page.getByTestId("session-list")).toBeVisible();
  await snap(page, testInfo, "mobile-sessions");
});
