// `agentfold login` approved in Chromium: the CLI (a real child process) prints the dashboard page
// and its code; the page, opened signed out, goes through sign-in and back, shows the code and the
// asking machine, and Approve for the chosen team gives the waiting CLI its token, which `whoami`
// then shows. The e2e team has no people, so the spec makes its own owner (`agentfold admin
// create`); it runs alone or after dashboard.spec.ts (its name sorts it there: keep it so).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../../src/cli/start/project";
import { stackCli } from "../support/stack-cli";
import { expect, test } from "../fixtures";
import { watchConsole } from "./page-checks";

const owner = { email: "lin@example.test", password: "lin-password-123" };
const teamSlug = "cli-lab";
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-e2e-login-"));
const bin = path.join(projectRoot, "bin", "agentfold.mjs");

// The person's own machine: no instance configured and no browser, its logins in configDir.
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: configDir, BROWSER: "none" };
  for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL", "AGENTFOLD_DATA_DIR"]) delete env[name];
  return env;
}

function run(args: string[]): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [bin, ...args], { env: cliEnv() });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

test.beforeAll(async () => {
  await stackCli("admin", "create", "--email", owner.email, "--password", owner.password, "--team", teamSlug);
});

test.afterAll(() => fs.rmSync(configDir, { recursive: true, force: true }));

test("a member approves an agentfold login in the browser and the CLI gets its token", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  const login = run(["login", baseURL!]);
  try {
    await expect.poll(() => login.output().stderr, { timeout: 30_000 }).toMatch(/cli-login\?code=[A-Z]{4}-[A-Z]{4}/);
    const [, pageUrl, code] = /open (\S+cli-login\?code=([A-Z]{4}-[A-Z]{4}))/.exec(login.output().stderr)!;

    // Opened signed out: sign-in first, then back to the same page.
    await page.goto(pageUrl!);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await page.getByTestId("signin-email").fill(owner.email);
    await page.getByTestId("signin-password").fill(owner.password);
    await page.getByTestId("signin-submit").click();
    await expect(page).toHaveURL(new RegExp(`/cli-login\\?code=${code}`));
    await expect(page.getByTestId("cli-login-code")).toHaveText(code!);
    await expect(page.getByTestId("cli-login-machine")).toContainText(os.hostname());

    await page.getByTestId("cli-login-team").selectOption(teamSlug);
    await page.getByTestId("cli-login-approve").click();
    await expect(page.getByTestId("cli-login-approved")).toContainText(code!);
    expect(await login.exited).toBe(0);
    expect(login.output().stdout).toContain(`logged in to ${baseURL} as cli on ${os.hostname()} (team ${teamSlug})`);

    const whoami = run(["whoami", "--json"]);
    expect(await whoami.exited).toBe(0);
    expect(JSON.parse(whoami.output().stdout)).toMatchObject({
      instance: baseURL,
      team: { slug: teamSlug },
      token: { name: `cli on ${os.hostname()}`, createdBy: owner.email },
    });

    // The code is spent: the page, reloaded, offers nothing to approve.
    await page.reload();
    await expect(page.getByTestId("cli-login-machine")).toContainText("this code is collected");
    await expect(page.getByTestId("cli-login-approve")).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    login.child.kill();
  }
});
