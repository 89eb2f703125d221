// The dashboard in Chromium: the first account signs up and becomes admin, uploads the support
// desk by folder, sets its secret, creates and revokes a token that a client then uses, and invites
// a viewer who cannot upload or see secrets (hidden in the UI, refused by the server) nor read the
// admin's sessions.
import fs from "node:fs";
import path from "node:path";
import { zipFiles } from "../../src/testing/archives";
import { test, expect } from "../fixtures";
import { focusOutlineAfterTab, send, signIn, unlabelledControls, watchConsole } from "./page-checks";

test.describe.configure({ mode: "serial" });

const admin = { email: "ada@example.test", password: "ada-password-123", name: "Ada" };
const viewer = { email: "vic@example.test", password: "vic-password-123", name: "Vic" };
const deskFolder = path.join(import.meta.dirname, "..", "..", "examples", "support-desk");
const invoiceFolder = path.join(import.meta.dirname, "..", "..", "examples", "invoice-pdf");
let teamSlug = "";
let inviteLink = "";
let adminSessionId = "";

test("the first account signs up and becomes the admin of its team", async ({ page }, testInfo) => {
  const errors = watchConsole(page);
  await page.goto("/signin");
  await page.getByRole("link", { name: "Create the first account" }).click();
  await expect(page.getByTestId("auth-title")).toHaveText("Create the first account");
  await page.getByTestId("signup-name").fill(admin.name);
  await page.getByTestId("signup-email").fill(admin.email);
  await page.getByTestId("signup-password").fill(admin.password);
  await page.getByTestId("signup-team").fill("Ada Labs");
  await page.getByTestId("signup-submit").click();
  await expect(page.getByTestId("home-agents")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);
  expect(await focusOutlineAfterTab(page)).not.toBe("none");
  await expect(page.getByTestId("team-switcher")).toContainText("Ada Labs (owner)");
  await expect(page.getByTestId("signed-in-as")).toHaveText("Ada");
  teamSlug = "ada-labs";

  // The instance admin opens another team and owns it.
  await page.getByTestId("new-team").click();
  await page.getByTestId("new-team-name").fill("Zeta Ops");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/teams\/zeta-ops\/members$/);
  await expect(page.getByTestId(`member-${admin.email}`).getByRole("combobox")).toHaveValue("owner");
  expect(errors).toEqual([]);
});

test("a second visitor cannot sign up without an invite", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/signup");
  await expect(page.getByTestId("signup-closed")).toContainText("invite");
});

test("uploads the support desk folder, reads its diagnostics, activates it", async ({ page }, testInfo) => {
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.goto(`/teams/${teamSlug}/agents`);
  await expect(page.getByText("No agents yet")).toBeVisible();
  await page.getByTestId("folder-input").setInputFiles(deskFolder);
  await expect(page.getByTestId("picked")).toContainText("support-desk/");
  await expect(page.getByTestId("upload-slug")).toHaveValue("support-desk");
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath("upload-diagnostics.png"), fullPage: true });
  await page.getByTestId("activate-uploaded").click();
  await expect(page.getByTestId("activate-uploaded")).toHaveText("Version 1 is active");
  await expect(page.getByTestId("agent-support-desk")).toContainText("v1 active");

  // A folder with a mistake: its diagnostics (file and message) show, and nothing can be activated.
  await dropZip(page, "broken.zip", { "bot/instructions.md": "Help.", "bot/tools/bad.ts": "export default 42;\n" });
  await expect(page.getByTestId("upload-slug")).toHaveValue("broken");
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-result")).toHaveAttribute("data-status", "invalid", { timeout: 60_000 });
  await expect(page.getByTestId("diagnostics")).toContainText("bot/tools/bad.ts");
  await expect(page.getByTestId("diagnostics")).toContainText("defineTool");
  await expect(page.getByTestId("activate-uploaded")).toHaveCount(0);
  await expect(page.getByTestId("agent-broken")).toContainText("no active version");
  await page.getByTestId("agent-support-desk").getByRole("link", { name: "Versions (1)" }).click();
  await expect(page.getByTestId("surface")).toContainText("issue_refund");
  await expect(page.getByTestId("surface")).toContainText("escalation");
  await expect(page.getByTestId("version-1")).toContainText("by Ada");
  const digest = page.getByTestId("schedule-daily-digest");
  await expect(digest).toContainText("last never");
  await digest.getByRole("button", { name: "Run now" }).click();
  await expect(digest.getByRole("link")).toBeVisible(); // the last run's task session
  await page.screenshot({ path: testInfo.outputPath("agent.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);

  // The schedule owns its run, and the team's owner reads it (docs/dashboard.md, "Task sessions"):
  // listed in the playground, opened with its log.
  const runId = new URL((await digest.getByRole("link").getAttribute("href"))!, "http://x").searchParams.get(
    "sessionId",
  )!;
  await digest.getByRole("link").click();
  await expect(page.getByTestId("session-list").locator(`[data-session-id="${runId}"]`)).toBeVisible();
  await expect(page.getByTestId("session-header")).toContainText("task");
  await expect(page.getByTestId("stream-status")).toBeVisible();
  await expect(page.getByTestId("stream-error")).toHaveCount(0);
  await page.goto(`/teams/${teamSlug}/agents/support-desk`);
  // The agent page is headed by defineAgent({ name }), not the slug or the package name.
  await expect(page.getByTestId("agent-title")).toHaveText("Support desk");

  // A second version dropped as a .zip onto the agent page, then a rollback to the first.
  const files = Object.fromEntries(
    listFiles(deskFolder).map((file) => [file, fs.readFileSync(path.join(deskFolder, file), "utf8")]),
  );
  files["bot/instructions.md"] += "\nAlways sign off as the Support Desk.\n";
  await dropZip(page, "support-desk-v2.zip", files);
  await expect(page.getByTestId("picked")).toContainText("support-desk-v2.zip");
  await page.getByTestId("upload-submit").click();
  await expect(page.getByTestId("upload-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await page.getByTestId("activate-uploaded").click();
  await expect(page.getByTestId("version-2")).toContainText("active");
  await page.getByTestId("version-1").getByRole("button", { name: "Roll back to this" }).click();
  await expect(page.getByTestId("version-1")).toContainText("active");
  await expect(page.getByTestId("version-2")).not.toContainText("active");
  expect(errors).toEqual([]);
});

test("uploads an agent with an npm dependency; the server installs it and its tool writes a PDF", async ({
  page,
}, testInfo) => {
  await signIn(page, admin);
  await page.goto(`/teams/${teamSlug}/agents`);
  // package.json names pdf-lib and package-lock.json pins it; the folder has no node_modules.
  await page.getByTestId("folder-input").setInputFiles(invoiceFolder);
  await expect(page.getByTestId("upload-slug")).toHaveValue("invoice-pdf");
  await page.getByTestId("upload-submit").click();
  // npm ci from the registry on the server, then the bundle.
  await expect(page.getByTestId("upload-result")).toHaveAttribute("data-status", "ready", { timeout: 240_000 });
  await page.getByTestId("activate-uploaded").click();
  await expect(page.getByTestId("activate-uploaded")).toHaveText("Version 1 is active");
  await page.screenshot({ path: testInfo.outputPath("invoice-uploaded.png"), fullPage: true });
  const called = await page.request.post("/invoice-pdf/v1/tools/make_invoice", {
    data: { input: { customer: "Ada" } },
  });
  expect(called.status()).toBe(200);
  expect(await called.json()).toMatchObject({ ok: true, isError: false, output: { header: "%PDF-" } });
});

test("sets, rotates and removes the agent's secret on its page, never showing the value again", async ({
  page,
}, testInfo) => {
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.goto(`/teams/${teamSlug}/agents/support-desk`);
  const panel = page.getByTestId("secrets");
  // The support desk declares HELPDESK_TOKEN (hosting.secretNames): missing, highlighted.
  await expect(panel.getByTestId("secrets-missing")).toContainText("HELPDESK_TOKEN");
  await panel.getByTestId("secret-missing-HELPDESK_TOKEN").click();
  await expect(panel.getByTestId("secret-name")).toHaveValue("HELPDESK_TOKEN");
  await expect(panel.getByTestId("secret-value")).toHaveAttribute("type", "password");
  await panel.getByTestId("secret-value").fill("desk-token-first-value");
  await panel.getByTestId("secret-save").click();
  await expect(panel.getByTestId("secret-saved")).toHaveText("HELPDESK_TOKEN saved");
  await expect(panel.getByTestId("secret-value")).toHaveValue("");
  // HELPDESK_WEBHOOK_SECRET, the webhook channel's, may still be missing.
  await expect(panel.getByTestId("secrets-missing")).not.toContainText("HELPDESK_TOKEN");
  await expect(panel.getByTestId("secret-HELPDESK_TOKEN").getByTestId("secret-changed")).toContainText(
    `by ${admin.email}`,
  );

  await panel.getByTestId("secret-HELPDESK_TOKEN").getByTestId("secret-rotate").click();
  await expect(panel.getByTestId("secret-name")).toHaveValue("HELPDESK_TOKEN");
  await panel.getByTestId("secret-value").fill("desk-token-second-value");
  await panel.getByTestId("secret-save").click();
  await expect(panel.getByTestId("secret-saved")).toHaveText("HELPDESK_TOKEN rotated");
  await page.reload();
  await expect(page.getByTestId("secret-HELPDESK_TOKEN")).toBeVisible();
  expect(await page.content()).not.toMatch(/desk-token-(first|second)-value/);
  await page.screenshot({ path: testInfo.outputPath("agent-secrets.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);

  // Removing asks first; cancelling keeps it.
  await page.getByTestId("secret-HELPDESK_TOKEN").getByTestId("secret-remove").click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("secret-HELPDESK_TOKEN")).toBeVisible();
  await page.getByTestId("secret-HELPDESK_TOKEN").getByTestId("secret-remove").click();
  await page.getByTestId("secret-remove-confirm").click();
  await expect(page.getByTestId("secret-HELPDESK_TOKEN")).toHaveCount(0);
  await expect(page.getByTestId("secrets-missing")).toContainText("HELPDESK_TOKEN");
  expect(errors).toEqual([]);
});

test("chats in the playground as the signed-in admin: streaming, a tool chip, a reload mid-turn, Stop", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.getByTestId("home-agent-support-desk").click();
  await expect(page.getByTestId("agent-name")).toContainText("Support desk");
  await send(page, 'Where is A-1002? [delay 2s] [call lookup_order {"orderId":"A-1002"}] [reason off]');
  const chip = page.locator('[data-testid="tool-chip"][data-tool="lookup_order"]');
  await expect(chip).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "running");
  await page.reload();
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed", { timeout: 20_000 });
  await expect(page.getByTestId("message-assistant")).toHaveText([
    /^Calling lookup_order/,
    /^The lookup_order tool returned: .*A-1002/,
  ]);
  await expect(page.getByTestId("tool-chip")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("playground.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: testInfo.outputPath("playground-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  await send(page, "Take your time [delay 60s]");
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "running");
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-state", "cancelled");
  expect(errors).toEqual([]);
});

test("a parked refund is approved after a reload, and the inbox shows who decided", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.goto("/support-desk/playground");
  await send(page, 'Refund A-1001 [call issue_refund {"orderId":"A-1001","reason":"broken"}] [reason off]');
  const chip = page.locator('[data-testid="tool-chip"][data-tool="issue_refund"]');
  await expect(chip.getByTestId("approve")).toBeVisible();
  await page.goto(`/teams/${teamSlug}/approvals`);
  await expect(page.getByTestId("approval-pending")).toContainText("issue_refund");
  await expect(page.getByTestId("approval-pending")).toContainText("asked by Ada");
  await page.screenshot({ path: testInfo.outputPath("approvals-pending.png"), fullPage: true });
  await page.goBack();
  await page.reload();
  await chip.getByTestId("approve").click();
  await expect(chip).toHaveAttribute("data-state", "done");
  await expect(chip.getByTestId("approval-decided")).toContainText("Approved by Ada");
  await page.goto(`/teams/${teamSlug}/approvals`);
  await expect(page.getByText("Nothing is waiting")).toBeVisible();
  await expect(page.getByTestId("approval-decided-row").first()).toContainText("approved");
  await expect(page.getByTestId("approval-decided-row").first().getByTestId("approval-approver")).toHaveText("by Ada");
  await page.screenshot({ path: testInfo.outputPath("approvals-history.png"), fullPage: true });
  expect(errors).toEqual([]);
});

test("Share makes a link that lets someone without an account chat with this agent only", async ({ page, browser }) => {
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.goto("/support-desk/playground");
  await page.getByTestId("share").click();
  await page.getByTestId("share-create").click();
  await expect(page.getByTestId("share-link")).toContainText("#token=af_");
  const link = (await page.getByTestId("share-link").textContent())!.trim();
  expect(link).toMatch(/\/support-desk\/playground#token=af_/);
  expect(errors).toEqual([]);

  const guest = await (await browser.newContext()).newPage();
  const guestErrors = watchConsole(guest);
  await guest.goto(link);
  await expect(guest).not.toHaveURL(/#token=/);
  await expect(guest.getByTestId("token-field")).toHaveValue(/^af_/);
  await send(guest, "Hello from a shared link [reason off]");
  await expect(guest.getByTestId("turn-status").last()).toHaveAttribute("data-state", "completed");
  expect(guestErrors).toEqual([]);
  const token = await guest.evaluate(() => localStorage.getItem("agentfold.token"));
  const elsewhere = await guest.request.post("/hello/v1/session", {
    headers: { authorization: `Bearer ${token}` },
    data: { message: "hi" },
  });
  expect(elsewhere.status()).toBe(403);
});

test("a token is shown once, works for a client, and stops working when revoked", async ({
  page,
  request,
}, testInfo) => {
  const errors = watchConsole(page);
  await signIn(page, admin);
  await page.goto(`/teams/${teamSlug}/tokens`);
  await page.getByTestId("token-name").fill("ci-client");
  await page.getByTestId("token-agent").selectOption("support-desk");
  await page.getByTestId("token-create").click();
  await expect(page.getByTestId("created-token")).toHaveText(/^af_/);
  const token = (await page.getByTestId("created-token").textContent())!.trim();
  await expect(page.getByTestId("token-curl")).toContainText(`/support-desk/v1/session`);
  await page.screenshot({ path: testInfo.outputPath("token-created.png") });
  await page.getByRole("button", { name: "Close" }).click();

  const started = await request.post("/support-desk/v1/session", {
    headers: { authorization: `Bearer ${token}` },
    data: { message: "Hello" },
  });
  expect(started.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("token-ci-client").getByTestId("token-last-used")).not.toHaveText("never");
  await page.getByTestId("token-ci-client").getByTestId("token-revoke").click();
  await expect(page.getByTestId("token-ci-client")).toContainText("revoked");
  const refused = await request.post("/support-desk/v1/session", {
    headers: { authorization: `Bearer ${token}` },
    data: { message: "Hello again" },
  });
  expect(refused.status()).toBe(401);
  await page.screenshot({ path: testInfo.outputPath("tokens.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("an admin invites a viewer", async ({ page }, testInfo) => {
  const errors = watchConsole(page);
  await signIn(page, admin);
  const session = await page.request.post("/support-desk/v1/session", { data: { message: "A private question" } });
  expect(session.status()).toBe(200);
  adminSessionId = ((await session.json()) as { sessionId: string }).sessionId;
  await page.goto(`/teams/${teamSlug}/members`);
  await page.getByTestId("invite-role").selectOption("viewer");
  await page.getByTestId("invite-create").click();
  await expect(page.getByTestId("invite-link")).toContainText("/signup?invite=inv_");
  inviteLink = (await page.getByTestId("invite-link").textContent())!.trim();
  expect(inviteLink).toContain("/signup?invite=inv_");
  await page.screenshot({ path: testInfo.outputPath("members.png"), fullPage: true });
  expect(await unlabelledControls(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("the viewer cannot upload and cannot read the admin's sessions", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  const errors = watchConsole(page);
  await page.goto(inviteLink);
  await expect(page.getByTestId("auth-title")).toHaveText("Join Ada Labs");
  await page.getByTestId("signup-name").fill(viewer.name);
  await page.getByTestId("signup-email").fill(viewer.email);
  await page.getByTestId("signup-password").fill(viewer.password);
  await page.getByTestId("signup-submit").click();
  await expect(page.getByTestId("home-agents")).toContainText("/support-desk · Ada Labs");
  await page.goto(`/teams/${teamSlug}/agents`);
  await expect(page.getByTestId("agent-support-desk")).toBeVisible();
  await expect(page.getByTestId("upload-panel")).toHaveCount(0);
  await page.goto(`/teams/${teamSlug}/agents/support-desk`);
  await expect(page.getByTestId("surface")).toBeVisible();
  await expect(page.getByTestId("secrets")).toHaveCount(0);
  expect(errors).toEqual([]);

  // The server refuses what the UI hides.
  const upload = await page.request.post(`/v1/agents/support-desk/versions?team=${teamSlug}`, {
    data: Buffer.from("not an archive"),
  });
  expect(upload.status()).toBe(403);
  const other = await page.request.get(`/support-desk/v1/session/${adminSessionId}`);
  expect(other.status()).toBe(403);
  expect((await page.request.get("/support-desk/v1/secrets")).status()).toBe(403);
  expect(
    (await page.request.put("/support-desk/v1/secrets/HELPDESK_TOKEN", { data: { value: "viewer-value" } })).status(),
  ).toBe(403);
  const chat = await page.request.post("/support-desk/v1/session", { data: { message: "Hi" } });
  expect(chat.status()).toBe(403);
  // Signed in, the API lists the agents of the viewer's team only (not the other teams' hello, desk …).
  const listed = (await (await page.request.get("/v1/agents")).json()) as { agents: { slug: string }[] };
  expect(listed.agents.map((agent) => agent.slug)).toEqual(["broken", "invoice-pdf", "support-desk"]);

  // Signing out ends it: dashboard pages send the visitor to sign in, the API answers 401.
  await page.getByTestId("sign-out").click();
  await expect(page.getByTestId("auth-title")).toHaveText("Sign in");
  await page.goto(`/teams/${teamSlug}/agents`);
  await expect(page).toHaveURL(/\/signin\?next=/);
  expect((await page.request.get("/support-desk/v1/session")).status()).toBe(401);
});

/** Drops a .zip of `files` on the page's upload area, as a person dragging it from their desktop. */
async function dropZip(page: import("@playwright/test").Page, name: string, files: Record<string, string>) {
  const zip = (await zipFiles(files)).toString("base64");
  const transfer = await page.evaluateHandle(
    ([base64, fileName]) => {
      const data = new DataTransfer();
      data.items.add(
        new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], fileName, { type: "application/zip" }),
      );
      return data;
    },
    [zip, name] as const,
  );
  await page.getByTestId("dropzone").dispatchEvent("drop", { dataTransfer: transfer });
  await expect(page.getByTestId("picked")).toContainText(name);
}

/** The files of a folder, relative to it. */
function listFiles(dir: string, prefix = ""): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, relative) : [relative];
  });
}
