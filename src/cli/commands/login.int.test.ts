// `agentfold login`, `logout`, `whoami` and the remote modes of `deploy`, `eval`, `token` and
// `secret`, as a person runs them: the real CLI in child processes, against a second instance (its
// own database, Restate and worker, its /v1 routes and the dashboard's tRPC over real HTTP), with
// the credential in a scratch config directory.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { signUp } from "@/server/auth/sign-up";
import { poolOf } from "@/server/db";
import { createInvite } from "@/server/teams/create-invite";
import { createToken } from "@/server/tokens/create-token";
import { cliBin, runCli, terminalArgs } from "@/testing/cli-process";
import type { DashboardServer } from "@/testing/dashboard-trpc-server";
import { writeFiles } from "@/testing/folders";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import type { V1Server } from "@/testing/v1-server";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-login-cli-"));
const configDir = path.join(scratch, "config");
const credentialsPath = path.join(configDir, "credentials.json");

// The CLI's own environment: no instance, no database; logins go to the scratch config dir.
const cliEnv: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: configDir };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL", "DISPLAY", "WAYLAND_DISPLAY", "BROWSER"])
  delete cliEnv[name];
const agentfold = (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
  runCli(args, { cwd: scratch, env: { ...cliEnv, ...options.env }, stdin: options.stdin });

const evalFile = (body: string) => `import { defineEval, includes } from "agentfold/evals";\nexport default ${body};\n`;
const echoFolder = {
  "bot/instructions.md": "You repeat what you are told.",
  "bot/agent.ts": `import { defineAgent } from "agentfold";\nexport default defineAgent({ hosting: { secretNames: ["API_KEY"] } });\n`,
  "evals/greets.eval.ts": evalFile(
    `defineEval({ test: async (t) => { await t.send("Hello there"); t.succeeded(); t.check(t.reply, includes("Hello there")); } })`,
  ),
};

type Answer = { status: number; body: Record<string, unknown> };
async function post(url: string, body: unknown, token?: string): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What a command prints at a terminal: run in a pseudo-terminal, stdout and stderr together. */
function atTerminal(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("script", terminalArgs(args, { flush: false }), { cwd: scratch, env: cliEnv }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

let h: Harness;
let web: V1Server;
let dashboard: DashboardServer;
let closeWeb = async () => {};
let ownerId = "";
let viewerId = "";
let teamSlug = "";
let loginToken = "";

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  const { restateIngress, restateAdmin } = h.ports();
  Object.assign(process.env, {
    DATABASE_URL: poolOf(h.db).options.connectionString,
    AGENTFOLD_DATA_DIR: h.dataDir,
    RESTATE_INGRESS_URL: restateIngress,
    RESTATE_ADMIN_URL: restateAdmin,
  });
  const password = "correct horse battery";
  const owner = await signUp({ db: h.db, email: "ada@example.com", password, name: "Ada", teamName: "Acme" });
  ownerId = owner.userId;
  teamSlug = owner.teamSlug;
  const team = await h.db.team.findUniqueOrThrow({ where: { slug: teamSlug }, select: { id: true } });
  const invite = await createInvite({
    db: h.db,
    teamId: team.id,
    actorRole: "owner",
    role: "viewer",
    createdById: ownerId,
  });
  viewerId = (await signUp({ db: h.db, email: "vic@example.com", password, inviteToken: invite.token })).userId;
  loginToken = (
    await createToken({
      db: h.db,
      teamId: team.id,
      name: "laptop",
      actions: ["agents:read", "agents:deploy", "evals:run", "sessions:read", "sessions:write", "tokens:write"],
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      createdById: ownerId,
    })
  ).token;
  // The worker read (and cached) the environment first: the web's modules are loaded anew.
  vi.resetModules();
  const { startV1Server } = await import("@/testing/v1-server");
  const { startDashboardServer } = await import("@/testing/dashboard-trpc-server");
  const platform = await import("@/server/http/platform");
  const credentials = await import("@/server/auth/credential-cache");
  web = await startV1Server();
  dashboard = await startDashboardServer();
  closeWeb = async () => {
    await dashboard.close();
    await web.close();
    await (await platform.eventHub()).close().catch(() => undefined);
    await (await credentials.processCredentialCache(process.env.DATABASE_URL!))?.close();
  };
}, 180_000);

afterAll(async () => {
  await closeWeb();
  await h?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("agentfold login --token, then remote commands", () => {
  it("checks the token, saves it readable by this user alone, and says who it is", { timeout: 60_000 }, async () => {
    const wrong = await agentfold(["login", web.url, "--token", "af_not_a_token"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("unknown token");
    expect(fs.existsSync(credentialsPath)).toBe(false);

    const login = await agentfold(["login", `${web.url}/`, "--token", loginToken]);
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`logged in to ${web.url} as laptop (team ${teamSlug})`);
    expect(fs.statSync(credentialsPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(fs.readFileSync(credentialsPath, "utf8"));
    expect(saved).toMatchObject({ current: web.url, instances: { [web.url]: { token: loginToken } } });

    const whoami = await agentfold(["whoami"]);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(
      `token laptop (${loginToken.slice(0, 10)}…) of team ${teamSlug}, made by ada@example.com`,
    );
    const json = JSON.parse((await agentfold(["whoami", "--json"])).stdout);
    expect(json).toMatchObject({
      instance: web.url,
      kind: "token",
      team: { slug: teamSlug, name: "Acme" },
      token: { name: "laptop", agents: [], actions: expect.arrayContaining(["agents:deploy", "tokens:write"]) },
    });
    expect(Date.parse(json.token.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it("deploys with the saved login, no --team, showing each step on stderr", { timeout: 120_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "echo"), echoFolder);
    const deployed = await agentfold(["deploy", "--dir", dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout.trim()).toBe(`echo version 1: ready (active) on ${web.url}`);
    // Not a terminal: one plain line per step as it ends, in order, none rewritten in place.
    const steps = deployed.stderr
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("  ")[0]);
    expect(steps).toEqual(["✓ packing", "✓ uploading", "✓ validating", "✓ bundling", "✓ activating"]);
    expect(deployed.stderr).toMatch(/✓ packing {2}3 files, \d+ B/);
    expect(deployed.stderr).not.toContain("\r");

    const again = await agentfold(["deploy", "--dir", dir, "--json"]);
    expect(again.code).toBe(0);
    const answer = JSON.parse(again.stdout);
    expect(answer).toMatchObject({
      ok: true,
      instance: web.url,
      version: { slug: "echo", number: 2, status: "ready", isActive: true },
    });
    // At a terminal (a pty from util-linux `script`): one line rewritten in place per step.
    const tty = await atTerminal([cliBin, "deploy", "--dir", dir]);
    expect(tty).toContain("\r\x1b[2K… uploading  0 B / ");
    const rewritten = "\r\x1b[2K";
    expect(tty.split(rewritten).some((part) => /^✓ bundling {2}\d+\.\d s\r?\n/.test(part))).toBe(true);
    expect(tty).toContain("echo version 3: ready (active)");
    const active = await h.db.agent.findUniqueOrThrow({
      where: { slug: "echo" },
      select: { activeVersion: { select: { number: true } } },
    });
    expect(active.activeVersion?.number).toBe(3);
  });

  it("exits 1 with the diagnostics of an invalid folder, and 2 for a command line it cannot act on", {
    timeout: 120_000,
  }, async () => {
    const dir = writeFiles(path.join(scratch, "broken"), {
      "bot/instructions.md": "x",
      "evals/bad.eval.ts": evalFile("defineEval({ tags: [] })"),
    });
    const invalid = await agentfold(["deploy", "--dir", dir, "--json"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/✗ bundling {2}1 error/);
    expect(invalid.stderr).toMatch(/\n {2}error: evals\/bad\.eval\.ts(:\d+)?: defineEval: give test or cases\n/);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ ok: false, version: { status: "invalid", isActive: false } });

    const missing = await agentfold(["deploy", "--dir", path.join(scratch, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such folder");
    // Without an instance, this installation's database needs --team.
    const local = await agentfold(["deploy", "--dir", dir], {
      env: { AGENTFOLD_CONFIG_DIR: path.join(scratch, "empty") },
    });
    expect(local.code).toBe(2);
    expect(local.stderr).toContain("deploy needs --team");
  });

  it("runs the deployed agent's evals there with the saved token", { timeout: 120_000 }, async () => {
    const result = await agentfold(["eval", "--url", web.url, "--slug", "echo", "--json"]);
    expect(result.stderr).not.toContain("starting a local stack");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).run).toMatchObject({ status: "passed", startedBy: "token laptop" });
  });

  it("makes tokens only within the logged-in one, and revokes them", { timeout: 60_000 }, async () => {
    const made = await agentfold(["token", "create", "--actions", "sessions:read", "--agents", "echo", "--name", "ci"]);
    expect(made.code, made.stderr).toBe(0);
    const token = made.stdout.trim();
    expect(token).toMatch(/^af_/);
    expect(made.stderr).toContain("token ci (");
    const who = JSON.parse((await agentfold(["whoami", "--json", "--token", token])).stdout);
    expect(who.token).toMatchObject({
      name: "ci",
      actions: ["sessions:read"],
      agents: ["echo"],
      createdBy: "ada@example.com",
    });
    // It cannot outlive the token that made it (30 days), nor do what that one cannot.
    expect(Date.parse(who.token.expiresAt)).toBeLessThan(Date.now() + 31 * 86_400_000);

    const wider = await agentfold(["token", "create", "--actions", "approvals:write"]);
    expect(wider.code).toBe(1);
    expect(wider.stderr).toContain("this token cannot grant approvals:write");
    const star = await agentfold(["token", "create", "--actions", "*"]);
    expect(star.stderr).toContain("this token cannot grant *");
    const longer = await agentfold(["token", "create", "--actions", "sessions:read", "--expires-days", "365"]);
    expect(longer.code).toBe(1);
    expect(longer.stderr).toContain("cannot outlive the one that makes it");
    // A token without tokens:write makes none.
    const fromCi = await agentfold(["token", "create", "--actions", "sessions:read", "--token", token]);
    expect(fromCi.stderr).toContain("may not make tokens (tokens:write)");

    const revoked = await agentfold(["token", "revoke", "--token", token]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked on ${web.url}`);
    const after = await agentfold(["whoami", "--token", token]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("this token was revoked");
  });

  it("sets, lists and removes secrets over HTTP, the value from stdin and never printed", {
    timeout: 60_000,
  }, async () => {
    const set = await agentfold(["secret", "set", "echo", "API_KEY"], { stdin: "s3cret-value\n" });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`API_KEY set on echo on ${web.url}`);
    const listed = await agentfold(["secret", "list", "echo", "--json"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain("s3cret-value");
    expect(JSON.parse(listed.stdout)).toMatchObject({
      secrets: [{ name: "API_KEY", updatedBy: "token laptop", isDeclared: true }],
      declared: ["API_KEY"],
      missing: [],
    });
    const removed = await agentfold(["secret", "rm", "echo", "API_KEY"]);
    expect(removed.code).toBe(0);
    expect((await agentfold(["secret", "list", "echo"])).stdout).toContain(
      "missing (expected by the active version): API_KEY",
    );
    const unknown = await agentfold(["secret", "rm", "echo", "API_KEY"]);
    expect(unknown.code).toBe(1);
  });
});

describe("agentfold login without a token: the device-style flow", () => {
  it("waits for a member's approval on the dashboard and saves the token it gets once", {
    timeout: 90_000,
  }, async () => {
    const child = spawn(process.execPath, [cliBin, "login", web.url], { cwd: scratch, env: cliEnv });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await waitFor("the code", async () => /code ([A-Z]{4}-[A-Z]{4})/.test(stderr), { timeoutMs: 30_000 });
    const code = /code ([A-Z]{4}-[A-Z]{4})/.exec(stderr)![1]!;
    expect(stderr).toContain(`open ${web.url}/cli-login?code=${code}`);
    // No browser on this machine (no DISPLAY, no BROWSER): none is tried.
    expect(stderr).not.toContain("opening it in your browser");

    const trpc = await dashboard.clientFor(ownerId);
    const shown = await trpc["cli-login"].get.query({ code: code.toLowerCase().replace("-", " ") });
    expect(shown).toMatchObject({ code, hostname: os.hostname(), status: "pending" });
    const approved = await trpc["cli-login"].approve.mutate({ code, teamSlug });
    expect(approved.team.slug).toBe(teamSlug);
    expect(await exited).toBe(0);
    expect(stdout).toContain(`logged in to ${web.url} as cli on ${os.hostname()} (team ${teamSlug})`);

    const who = JSON.parse((await agentfold(["whoami", "--json"])).stdout);
    expect(who.token).toMatchObject({ name: `cli on ${os.hostname()}`, createdBy: "ada@example.com" });
    expect(who.token.actions).toEqual(expect.arrayContaining(["agents:deploy", "evals:run", "tokens:write"]));
    const days = (Date.parse(who.token.expiresAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    // A code is single-use.
    await expect(trpc["cli-login"].approve.mutate({ code, teamSlug })).rejects.toThrow(/expired or was already used/);
  });

  it("answers the token once, only to the request's secret, within the approver's role", {
    timeout: 60_000,
  }, async () => {
    const started = await post(`${web.url}/v1/cli-login`, { hostname: "build-box" });
    expect(started.status).toBe(200);
    const { requestId, code } = started.body as { requestId: string; code: string };
    const poll = () => post(`${web.url}/v1/cli-login/poll`, { requestId });
    expect((await poll()).body).toEqual({ ok: true, status: "pending" });
    // Another secret, or a made-up one, reads nothing.
    const guessed = await post(`${web.url}/v1/cli-login/poll`, { requestId: `clr_${"A".repeat(43)}` });
    expect(guessed.status).toBe(404);

    const viewer = await dashboard.clientFor(viewerId);
    await viewer["cli-login"].approve.mutate({ code, teamSlug });
    const collected = await poll();
    expect(collected.body).toMatchObject({ ok: true, status: "approved", team: { slug: teamSlug } });
    // A viewer's CLI token reads; it cannot deploy or run evals.
    expect((collected.body.actions as string[]).sort()).toEqual(["agents:read", "sessions:read", "tokens:write"]);
    const token = collected.body.token as string;
    const again = await poll();
    expect(again.status).toBe(409);
    const upload = await fetch(`${web.url}/v1/agents/echo/versions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
      body: "x",
    });
    expect(upload.status).toBe(403);
  });

  it("tells the CLI when the login is denied, or expires unapproved", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [cliBin, "login", web.url, "--no-browser"], { cwd: scratch, env: cliEnv });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await waitFor("the code", async () => /code ([A-Z]{4}-[A-Z]{4})/.test(stderr), { timeoutMs: 30_000 });
    const code = /code ([A-Z]{4}-[A-Z]{4})/.exec(stderr)![1]!;
    await (await dashboard.clientFor(ownerId))["cli-login"].deny.mutate({ code });
    expect(await exited).toBe(1);
    expect(stderr).toContain(`the login ${code} was denied`);

    const started = await post(`${web.url}/v1/cli-login`, { hostname: "slow-box" });
    const { requestId } = started.body as { requestId: string };
    const { collectCliLogin } = await import("@/server/cli-login/collect-cli-login");
    const later = new Date(Date.now() + 11 * 60_000);
    expect(await collectCliLogin({ db: h.db, requestId, now: later })).toEqual({ ok: true, status: "expired" });
  });
});

describe("agentfold logout", () => {
  it("revokes the saved token on the instance and forgets it", { timeout: 60_000 }, async () => {
    const saved = JSON.parse(fs.readFileSync(credentialsPath, "utf8"));
    const token = saved.instances[web.url].token as string;
    const out = await agentfold(["logout"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`logged out of ${web.url}; its token is revoked`);
    expect(JSON.parse(fs.readFileSync(credentialsPath, "utf8"))).toEqual({ instances: {} });
    expect(fs.statSync(credentialsPath).mode & 0o777).toBe(0o600);
    const revoked = await agentfold(["whoami", "--url", web.url, "--token", token]);
    expect(revoked.stderr).toContain("this token was revoked");
    const nobody = await agentfold(["whoami"]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("not logged in");
    expect((await agentfold(["logout"])).stderr).toContain("not logged in anywhere");
  });
});
