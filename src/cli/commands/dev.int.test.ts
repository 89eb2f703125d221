// `agentfold dev` as an author runs it: the real CLI in a child process serving a folder of its
// own; edits reach the next turn of a session that was open before them, a broken edit keeps the
// last good version serving, a busy port moves to the next one, and Ctrl-C stops everything. And a
// root of several agent folders, in a terminal: each its own agent, an edit reloads only its
// agent, a folder broken from the start waits for its fix, Enter reloads, /v1/dev/* needs no token.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { getFreePort } from "@/cli/start/ports";
import { waitFor } from "@/cli/start/wait";
import { cliBin, runCli, terminalArgs } from "@/testing/cli-process";
import { writeFiles } from "@/testing/folders";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-dev-cli-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const cliEnv: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: path.join(scratch, "config") };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL", "RESTATE_INGRESS_URL", "RESTATE_ADMIN_URL"])
  delete cliEnv[name];

const tool = (answer: string) => `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({
  description: "Says which edit of the folder answered",
  inputSchema: z.object({}),
  async execute() { return { edition: "${answer}" }; },
});
`;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

/** POSTs as a loopback caller with no token; expects a 2xx. */
async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as { sessionId: string; continuationToken: string };
}

/** The tool output and prompt size of the session's `turns`-th turn, once it has ended. */
async function turnOutput(api: string, sessionId: string, turns = 1) {
  let outcome: { edition?: string; inputTokens: number } | undefined;
  await waitFor("the turn to end", async () => {
    const text = await (await fetch(`${api}/session/${sessionId}/events`)).text();
    const events = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const ends = events.filter((e) => e.type === "turn.completed" || e.type === "turn.failed");
    const results = events.filter((e) => e.type === "action.result");
    if (ends.length < turns) return false;
    const end = ends.at(-1);
    expect(end.type).toBe("turn.completed");
    outcome = { edition: results.at(-1)?.data.output?.edition, inputTokens: end.data.usage.inputTokens };
    return true;
  });
  return outcome!;
}

describe("agentfold dev", () => {
  it("serves the folder, reloads edits into open sessions, survives a broken edit, stops on Ctrl-C", {
    // The first stack of a run may build the web app (minutes on two busy cores).
    timeout: 600_000,
  }, async () => {
    const dir = writeFiles(path.join(scratch, "edited"), {
      "bot/instructions.md": "You answer briefly.",
      "bot/tools/edition.ts": tool("first"),
    });
    // The preferred port is taken: dev moves on to the next free one and says so.
    const busy = await getFreePort();
    const holder = net.createServer().listen(busy, "127.0.0.1");
    const child = spawn(
      process.execPath,
      [cliBin, "dev", "--dir", dir, "--port", String(busy), "--state-root", path.join(scratch, "state")],
      { cwd: scratch, env: cliEnv },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const shows = (text: string | RegExp, timeoutMs = 60_000) =>
      waitFor(
        `dev to print ${text}`,
        async () => (typeof text === "string" ? output.includes(text) : text.test(output)),
        {
          timeoutMs,
        },
      );
    try {
      await shows(/ready in [\d.]+ s; watching/, 540_000);
      expect(output).toContain(`port ${busy} is in use; using`);
      const base = /playground: (http:\/\/127\.0\.0\.1:\d+)\/edited\/playground/.exec(output)![1]!;
      expect(Number(new URL(base).port)).toBeGreaterThan(busy);

      // A loopback caller needs no token; the session is open before the edits.
      const api = `${base}/edited/v1`;
      const started = await post(`${api}/session`, { message: "Which edition? [call edition {}]" });
      expect((await turnOutput(api, started.sessionId)).edition).toBe("first");
      const fresh = await post(`${api}/session`, { message: "Hello" });
      const before = await turnOutput(api, fresh.sessionId);

      // The tool and the instructions change: the open session's next turn runs the new tool,
      // and a new session's prompt has the new instructions (one token is one word offline).
      fs.writeFileSync(path.join(dir, "bot/tools/edition.ts"), tool("second"));
      fs.writeFileSync(path.join(dir, "bot/instructions.md"), `You answer briefly. ${words(12)}`);
      await shows(/version \d+ ready in \d+ ms \(\d+ sessions? moved to it\)/);
      // Both saves may come as one load or two: wait until none is pending.
      await waitFor(
        "the edits to be loaded",
        async () => output.lastIndexOf("changed:") < output.lastIndexOf(" ready in "),
      );
      const followed = await post(`${api}/session/${started.sessionId}`, {
        continuationToken: started.continuationToken,
        message: "And now? [call edition {}]",
      });
      expect((await turnOutput(api, followed.sessionId, 2)).edition).toBe("second");
      // Its trace is saved as it goes, and `trajectory --events` reads it as `run` prints.
      const trace = path.join(scratch, "state", "traces", `${started.sessionId}.ndjson`);
      const lines = (text: string) =>
        text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as unknown);
      const logged = lines(await (await fetch(`${api}/session/${started.sessionId}/events`)).text());
      await waitFor(
        "the trace to catch up",
        async () => fs.existsSync(trace) && isDeepStrictEqual(lines(fs.readFileSync(trace, "utf8")), logged),
      );
      const replayed = await runCli(["trajectory", "--events", trace], { cwd: scratch, env: cliEnv });
      expect(replayed.code, replayed.stderr).toBe(0);
      const trajectory = JSON.parse(replayed.stdout) as { status: string; toolCalls: { output: unknown }[] };
      expect(trajectory.status).toBe("completed");
      expect(trajectory.toolCalls.map((call) => call.output)).toEqual([{ edition: "first" }, { edition: "second" }]);
      const after = await turnOutput(api, (await post(`${api}/session`, { message: "Hello" })).sessionId);
      expect(after.inputTokens - before.inputTokens).toBe(12);

      // A broken edit is reported inline and the last good version keeps answering.
      fs.writeFileSync(path.join(dir, "bot/tools/edition.ts"), "export default defineTool({");
      await shows("the last good version keeps serving");
      expect(output.lastIndexOf("changed:")).toBeLessThan(output.lastIndexOf("keeps serving"));
      expect(output).toMatch(/bot\/tools\/edition\.ts/);
      const still = await post(`${api}/session`, { message: "Still there? [call edition {}]" });
      expect((await turnOutput(api, still.sessionId)).edition).toBe("second");

      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      // SIGINT first, so the stack's Postgres and Restate stop with it.
      if (child.exitCode === null) child.kill("SIGINT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      child.kill("SIGKILL");
      holder.close();
    }
  });

  it("serves each agent folder of a root, reloads only the edited one, waits for a broken one, reloads on Enter", {
    timeout: 600_000,
  }, async () => {
    const root = path.join(scratch, "agents");
    writeFiles(path.join(root, "alpha"), {
      "bot/instructions.md": "You answer briefly.",
      "bot/tools/edition.ts": tool("alpha-1"),
      "bot/schedules/nightly.md": '---\ncron: "0 3 * * *"\n---\nSay good night.\n',
    });
    // Broken from the start: there is no good version of it to keep serving.
    writeFiles(path.join(root, "beta"), {
      "bot/instructions.md": "You answer briefly.",
      "bot/tools/edition.ts": "export default defineTool({",
    });
    writeFiles(path.join(root, "notes"), { "todo.md": "not an agent folder" });
    // `script` gives dev a real terminal, so Enter and Ctrl-C go in as a person types them.
    const args = [cliBin, "dev", "--dir", root, "--port", "0", "--state-root", path.join(scratch, "root-state")];
    const child = spawn("script", terminalArgs(args), { cwd: scratch, env: { ...cliEnv, TERM: "dumb" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const shows = (text: string | RegExp, from = 0, timeoutMs = 60_000) =>
      waitFor(
        `dev to print ${text}`,
        async () => (typeof text === "string" ? output.slice(from).includes(text) : text.test(output.slice(from))),
        { timeoutMs },
      ).catch((error: Error) => {
        throw new Error(`${error.message}; the output ends with:\n${output.slice(-3000)}`);
      });
    try {
      await shows(/started in [\d.]+ s; watching \S+ \(Enter reloads\); waiting for beta to load/, 0, 540_000);
      expect(output).toMatch(/beta: error: bot\/tools\/edition\.ts/);
      expect(output).toMatch(/beta: version 1 has \d+ errors? and no version loaded before it: nothing is served yet/);
      expect(output).not.toContain("keeps serving");
      expect(output).not.toMatch(/ready in [\d.]+ s/);
      expect(output).not.toContain("beta: playground");
      expect(output).not.toContain("notes");
      const base = /alpha: playground: (http:\/\/127\.0\.0\.1:\d+)\/alpha\/playground/.exec(output)![1]!;
      const alpha = `${base}/alpha/v1`;
      const beta = `${base}/beta/v1`;

      // /v1/dev/* on the dev agent's URL, as a loopback caller with no token; through a proxy, refused.
      const fired = await post(`${alpha}/dev/schedules/nightly`, {});
      expect(fired.sessionId).toMatch(/^ses_/);
      const proxied = await fetch(`${alpha}/dev/schedules/nightly`, {
        method: "POST",
        headers: { "x-forwarded-for": "203.0.113.7" },
      });
      expect(proxied.status).toBe(401);

      // `call` with no --url and no --dir goes to the saved login's instance, to the agent named as
      // the current folder (one here with no agent in it: a local call would fail); token revoke
      // --json says where it revoked.
      const stateRoot = path.join(scratch, "root-state");
      const { postgres } = JSON.parse(fs.readFileSync(path.join(stateRoot, "ports.json"), "utf8"));
      const onDevDatabase = { ...cliEnv, AGENTFOLD_DATA_DIR: stateRoot, POSTGRES_PORT: String(postgres) };
      const minted = await runCli(["token", "create", "--team", "local", "--actions", "*", "--json"], {
        cwd: scratch,
        env: onDevDatabase,
      });
      expect(minted.code, minted.stderr).toBe(0);
      const { token } = JSON.parse(minted.stdout) as { token: string };
      const loggedIn = { ...cliEnv, AGENTFOLD_CONFIG_DIR: path.join(scratch, "login-config") };
      const login = await runCli(["login", base, "--token", token], { cwd: scratch, env: loggedIn });
      expect(login.code, login.stderr).toBe(0);
      const elsewhere = writeFiles(path.join(scratch, "elsewhere", "alpha"), { "notes.md": "no agent here" });
      const called = await runCli(["call", "edition"], { cwd: elsewhere, env: loggedIn });
      expect(called.code, called.stderr).toBe(0);
      expect(JSON.parse(called.stdout).toolCalls[0]).toMatchObject({
        status: "completed",
        output: { edition: "alpha-1" },
      });
      const revoked = await runCli(["token", "revoke", "--token", token, "--json"], { cwd: scratch, env: loggedIn });
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(JSON.parse(revoked.stdout)).toEqual({ ok: true, revoked: true, instance: base });
      const refused = await runCli(["call", "edition"], { cwd: elsewhere, env: loggedIn });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");

      // Fixed, beta loads for the first time, and only now says where it is.
      const fixing = output.length;
      fs.writeFileSync(path.join(root, "beta/bot/tools/edition.ts"), tool("beta-1"));
      await shows(/beta: version \d+ ready in \d+ ms/, fixing);
      await shows(`beta: playground: ${base}/beta/playground`, fixing);
      expect(output.slice(fixing)).not.toContain("loading agents/alpha");

      const onAlpha = await post(`${alpha}/session`, { message: "Which edition? [call edition {}]" });
      expect((await turnOutput(alpha, onAlpha.sessionId)).edition).toBe("alpha-1");
      const onBeta = await post(`${beta}/session`, { message: "Which edition? [call edition {}]" });
      expect((await turnOutput(beta, onBeta.sessionId)).edition).toBe("beta-1");

      // An edit in alpha reloads alpha alone; alpha's open session sees it, beta's does not change.
      const editing = output.length;
      fs.writeFileSync(path.join(root, "alpha/bot/tools/edition.ts"), tool("alpha-2"));
      await shows(/alpha: version \d+ ready in \d+ ms \(\d+ sessions? moved to it\)/, editing);
      expect(output.slice(editing)).toContain("changed: alpha/bot/tools/edition.ts; loading agents/alpha");
      expect(output.slice(editing)).not.toMatch(/loading agents\/beta|beta: version/);
      const alphaAgain = await post(`${alpha}/session/${onAlpha.sessionId}`, {
        continuationToken: onAlpha.continuationToken,
        message: "And now? [call edition {}]",
      });
      expect((await turnOutput(alpha, alphaAgain.sessionId, 2)).edition).toBe("alpha-2");
      const betaAgain = await post(`${beta}/session/${onBeta.sessionId}`, {
        continuationToken: onBeta.continuationToken,
        message: "And now? [call edition {}]",
      });
      expect((await turnOutput(beta, betaAgain.sessionId, 2)).edition).toBe("beta-1");
      expect(output.slice(editing)).not.toMatch(/loading agents\/beta|beta: version/);

      // Enter in the terminal reloads every agent, with no file changed.
      const entering = output.length;
      child.stdin.write("\r");
      await shows("Enter; loading agents/alpha", entering);
      await shows("Enter; loading agents/beta", entering);
      await shows(/beta: version \d+ ready in \d+ ms/, entering);
      expect(output.slice(entering)).toMatch(/alpha: version \d+ ready in \d+ ms/);

      child.stdin.write("\x03");
      expect(await exited).toBe(0);
    } finally {
      // Ctrl-C first, so the stack's Postgres and Restate stop with it.
      if (child.exitCode === null) child.stdin.write("\x03");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      child.kill("SIGKILL");
    }
  });
});
