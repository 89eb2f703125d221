// The playground's Trace tab in Chromium: a turn with a tool call is a waterfall whose bars come
// in the order of the session's events, a bar shows the events it was made from, the session's
// log downloads as .ndjson, and that file opens again offline, without a session. Any console
// error or page error fails the test.
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { api, parseDump, tokens } from "../api/client";
import { expect, test } from "../fixtures";
import { openDeskPlaygroundEachTest } from "./desk-playground";
import { send } from "./page-checks";

const slug = "desk";

test.describe.configure({ mode: "serial" });

openDeskPlaygroundEachTest(slug);

async function openTrace(page: Page) {
  await page.getByTestId("raw-toggle").click();
  // Raw stays the first tab, as it was before the panel had tabs.
  await expect(page.getByTestId("side-tab-raw")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("raw-events")).toBeVisible();
  await page.getByTestId("side-tab-trace").click();
  await expect(page.getByTestId("side-tab-trace")).toHaveAttribute("aria-selected", "true");
  return page.getByTestId("trace-panel");
}

/** Each bar's kind and the index of the event it starts with, top to bottom. */
async function barsOf(panel: Locator) {
  const bars = panel.getByTestId("trace-bar");
  return bars.evaluateAll((elements) =>
    elements.map((element) => ({
      kind: element.getAttribute("data-kind"),
      order: Number(element.getAttribute("data-order")),
      startIndex: Number(element.getAttribute("data-start-index")),
    })),
  );
}

/** What each bar of a one-tool turn must start with, read from the session's own log. */
async function expectedBars(sessionId: string) {
  const dump = await api("GET", `/${slug}/v1/session/${sessionId}/events`, { token: tokens().owner });
  expect(dump.status).toBe(200);
  const events = parseDump(dump.text);
  const first = (type: string, after = -1) => events.find((event) => event.type === type && event.index > after)!;
  const turn = events.find((event) => event.turnId)!;
  const step1 = first("step.started");
  const request = first("actions.requested");
  const step2 = first("step.started", request.index);
  return {
    events,
    bars: [
      { kind: "turn", startIndex: turn.index },
      { kind: "step", startIndex: step1.index },
      { kind: "model", startIndex: step1.index },
      { kind: "tool", startIndex: request.index },
      { kind: "step", startIndex: step2.index },
      { kind: "model", startIndex: step2.index },
    ].map((bar, order) => ({ ...bar, order })),
    request,
    result: first("action.result"),
  };
}

async function expectToolEvents(panel: Locator, expected: Awaited<ReturnType<typeof expectedBars>>) {
  const tool = panel.locator('[data-testid="trace-bar"][data-kind="tool"]');
  await expect(tool).toHaveAttribute("aria-label", /^lookup_order: tool call, finished, [\d.]+ (ms|s)/);
  await tool.click();
  await expect(tool).toHaveAttribute("aria-pressed", "true");
  const details = panel.getByTestId("trace-details");
  await expect(details).toHaveAttribute("data-bar-kind", "tool");
  await expect(details.getByTestId("trace-event")).toHaveCount(2);
  const shown = await details
    .getByTestId("trace-event")
    .evaluateAll((elements) => elements.map((element) => Number(element.getAttribute("data-index"))));
  expect(shown).toEqual([expected.request.index, expected.result.index]);
  await expect(details).toContainText('"orderId": "A-1002"');
  await expect(details).toContainText('"found": true');
}

test("a turn with a tool call is bars in event order; a bar shows its events; the trace saves and opens offline", async ({
  page,
}, testInfo) => {
  await send(page, 'Where is my order? [call lookup_order {"orderId":"A-1002"}] [reason off]');
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  await expect(page).toHaveURL(/sessionId=ses_/);
  const sessionId = new URL(page.url()).searchParams.get("sessionId")!;
  const expected = await expectedBars(sessionId);

  const panel = await openTrace(page);
  await expect(panel.getByTestId("trace-bar")).toHaveCount(6);
  expect(await barsOf(panel)).toEqual(expected.bars);
  await expect(panel.getByTestId("trace-turn-usage")).toContainText(/\d+ tokens \(\d+ in · \d+ out\)/);
  await expectToolEvents(panel, expected);
  await page.screenshot({ path: testInfo.outputPath("trace.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("trace-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // The download is the session's log exactly as GET …/events answers it.
  const [download] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("trace-download").click()]);
  expect(download.suggestedFilename()).toBe(`${sessionId}.ndjson`);
  const file = testInfo.outputPath(`${sessionId}.ndjson`);
  await download.saveAs(file);
  expect(parseDump(fs.readFileSync(file, "utf8"))).toEqual(expected.events);

  // Offline: no session open, the saved file alone draws the same waterfall.
  await page.getByTestId("new-chat").click();
  await expect(page).not.toHaveURL(/sessionId=/);
  await expect(panel.getByTestId("trace-empty")).toBeVisible();
  await expect(panel.getByTestId("trace-download")).toHaveCount(0);
  await panel.getByTestId("trace-file-input").setInputFiles(file);
  await expect(panel.getByTestId("trace-file-banner")).toContainText(`${sessionId}.ndjson`);
  await expect(panel.getByTestId("trace-file-banner")).toContainText(`${expected.events.length} events`);
  expect(await barsOf(panel)).toEqual(expected.bars);
  await expectToolEvents(panel, expected);
  await page.screenshot({ path: testInfo.outputPath("trace-file.png"), fullPage: true });

  await panel.getByTestId("trace-file-close").click();
  await expect(panel.getByTestId("trace-empty")).toBeVisible();
});

test("a file that holds no events says so", async ({ page }, testInfo) => {
  const panel = await openTrace(page);
  const file = testInfo.outputPath("notes.ndjson");
  fs.writeFileSync(file, "not a trace\n");
  await panel.getByTestId("trace-file-input").setInputFiles(file);
  await expect(panel.getByTestId("trace-file-error")).toContainText("notes.ndjson has no session events");
  await expect(panel.getByTestId("trace-empty")).toBeVisible();
});
