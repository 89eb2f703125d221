// The desk's channel routes from the playground in Chromium: `/` autocompletes the commands,
// /help lists every route, a slash command's form calls POST /tickets and shows its 202, and the
// Try modal remembers the last body and gives a curl command that, run in a shell with a real
// token, gets the same answer. Any console error or page error fails the test.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { tokens } from "../api/client";
import { expect, test } from "../fixtures";
import { openDeskPlaygroundEachTest } from "./desk-playground";

const tickets = "webhook POST /tickets";

test.describe.configure({ mode: "serial" });

openDeskPlaygroundEachTest();

async function help(page: Page) {
  await page.getByTestId("composer").fill("/help");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("channel-help").last()).toBeVisible();
}

test("/ offers /help and the routes without path parameters; /help lists every route", async ({ page }) => {
  await page.getByTestId("composer").fill("/");
  const items = page.getByTestId("slash-menu").getByTestId("slash-item");
  await expect(items.first()).toHaveAttribute("data-command", "/help");
  await expect(items.filter({ hasText: `/${tickets}` })).toHaveCount(1);
  // POST /tickets/:id/ask and /tickets/:id/triage have a path parameter: not commands.
  await expect(items.filter({ hasText: "/tickets/:id/" })).toHaveCount(0);

  await help(page);
  await expect(page.getByTestId("composer")).toHaveValue("");
  const routes = page.getByTestId("channel-help").getByTestId("help-route");
  await expect(routes).toHaveCount(3);
  await expect(routes.nth(0)).toHaveAttribute("data-route", tickets);
  await expect(routes.nth(0)).toContainText("Open (or continue) the support session of a helpdesk ticket");
  await expect(routes.nth(1)).toHaveAttribute("data-route", "webhook POST /tickets/:id/ask");
  await expect(routes.nth(1)).toContainText("Ask about a ticket");
  await expect(routes.nth(2)).toHaveAttribute("data-route", "webhook POST /tickets/:id/triage");
  await expect(routes.nth(2)).toContainText("Rate a ticket's urgency");
  // Nothing was sent to the agent: no session started.
  await expect(page).not.toHaveURL(/sessionId=/);
});

test("a slash command opens a form from the body schema, sends it, and shows the 202", async ({ page }) => {
  await page.getByTestId("composer").fill("/tick");
  await page.getByTestId("composer").press("Enter");
  const form = page.getByTestId("command-form");
  await expect(form).toHaveAttribute("data-route", tickets);
  await expect(form).toContainText("ticketId *");
  await form.getByTestId("route-body-field-ticketId").fill("T-ui-1");
  await form.getByTestId("route-body-field-text").fill("Where is A-1002?");
  await form.getByTestId("command-send").click();

  const call = page.getByTestId("channel-call").last();
  await expect(call.getByTestId("channel-answer")).toHaveAttribute("data-status", "202");
  await expect(call.getByTestId("channel-answer")).toContainText("content-type");
  const body = JSON.parse((await call.getByTestId("channel-answer-body").textContent()) ?? "");
  expect(body).toMatchObject({ ok: true, ticketId: "T-ui-1", sessionId: expect.stringMatching(/^ses_/) });
  await expect(form).toHaveCount(0);

  // The session the route started opens from the answer.
  await call.getByTestId("answer-open-session").click();
  await expect(page).toHaveURL(new RegExp(`sessionId=${body.sessionId}`));
  await expect(page.getByTestId("message-user").first()).toContainText("Where is A-1002?");
});

test("the Try modal remembers the last body; its curl line gets the same answer in a shell", async ({
  page,
  context,
}) => {
  await help(page);
  await page.getByTestId("help-route").filter({ hasText: "/tickets" }).first().getByTestId("help-try").click();
  const dialog = page.getByTestId("try-dialog");
  await expect(dialog).toHaveAttribute("data-route", tickets);
  // A fresh browser has sent nothing yet: the editor starts from the body schema's properties.
  const editor = dialog.getByTestId("route-body-json");
  expect(JSON.parse(await editor.inputValue())).toEqual({ ticketId: "", text: "" });

  await editor.fill(JSON.stringify({ ticketId: "T-ui-2", text: 'It\'s late; "urgent" $HOME' }));
  await dialog.getByTestId("try-send").click();
  await expect(dialog.getByTestId("channel-answer")).toHaveAttribute("data-status", "202");
  const inBrowser = JSON.parse((await dialog.getByTestId("channel-answer-body").textContent()) ?? "");

  const curl = (await dialog.getByTestId("try-curl").textContent()) ?? "";
  expect(curl).toContain('-H "Authorization: Bearer $AGENTFOLD_TOKEN"');
  expect(curl).not.toContain(tokens().owner);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await dialog.getByTestId("try-copy-curl").click();
  await expect(dialog.getByTestId("try-copy-curl")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);

  const { stdout } = await promisify(execFile)("sh", ["-c", `${curl} -w '\\n%{http_code}'`], {
    env: { ...process.env, AGENTFOLD_TOKEN: tokens().owner },
  });
  const lines = stdout.trimEnd().split("\n");
  expect(lines.at(-1)).toBe("202");
  const fromShell = JSON.parse(lines.slice(0, -1).join("\n"));
  expect(Object.keys(fromShell).sort()).toEqual(Object.keys(inBrowser).sort());
  // The same ticket is the same conversation, whichever client sends it.
  expect(fromShell).toEqual(inBrowser);

  // The last body is remembered, across a reload, for the modal and the slash command's form.
  await page.reload();
  await help(page);
  await page.getByTestId("help-route").first().getByTestId("help-try").click();
  expect(JSON.parse(await page.getByTestId("route-body-json").inputValue())).toMatchObject({ ticketId: "T-ui-2" });
  await page.keyboard.press("Escape");
  await page.getByTestId("composer").fill("/webhook POST /tickets");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("route-body-field-ticketId")).toHaveValue("T-ui-2");
});
