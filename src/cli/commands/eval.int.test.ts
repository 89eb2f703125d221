// `agentfold eval` as CI runs it: the real CLI in a child process, on a throwaway local stack of its
// own, or against an instance's /v1 routes over HTTP; exit codes, the JSON answer on stdout, the
// progress on stderr, and a JUnit report read back with an XML parser.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { waitFor } from "@/cli/start/wait";
import { poolOf } from "@/server/db";
import { evalResultSchema, evalRunSchema } from "@/server/evals/schema";
import type { AgentRef } from "@/server/sessions/start-session";
import { createToken } from "@/server/tokens/create-token";
import { cliBin, runCli } from "@/testing/cli-process";
import { writeFiles } from "@/testing/folders";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import type { V1Server } from "@/testing/v1-server";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-eval-cli-"));

// The CLI's own environment: no instance configured, so it runs on a local stack unless told.
const cliEnv: NodeJS.ProcessEnv = { ...process.env };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL"]) delete cliEnv[name];
const agentfold = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: scratch, env: { ...cliEnv, ...env } });

const evalFile = (body: string) => `import { defineEval, includes } from "agentfold/evals";\nexport default ${body};\n`;

/** A folder whose evals pass, fail on a wrong reply, and throw; `local:scripted` answers `You said: "…"`. */
const mixedFolder = {
  "bot/instructions.md": "You repeat what you are told.",
  "evals/greets.eval.ts": evalFile(`defineEval({
  tags: ["smoke"],
  cases: [
    { id: "echoes", test: async (t) => {
      await t.send("Hello there");
      t.succeeded();
      t.check(t.reply, includes("Hello there"));
    } },
    { id: "wrong", tags: ["french"], test: async (t) => { await t.send("Hello there"); t.check(t.reply, includes("Bonjour")); } },
  ],
})`),
  "evals/broken.eval.ts": evalFile(
    `defineEval({ tags: ["slow"], test: async () => { throw new Error("the <fixture> & its tool broke"); } })`,
  ),
};

const junitParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  htmlEntities: true,
  isArray: (name) => name === "testsuite" || name === "testcase",
});

type JUnitCase = {
  classname: string;
  name: string;
  time: string;
  failure?: { message: string };
  error?: { message: string };
};
type JUnit = {
  testsuites: {
    tests: string;
    failures: string;
    errors: string;
    testsuite: { name: string; tests: string; failures: string; errors: string; testcase: JUnitCase[] }[];
  };
};

function readJUnit(file: string): JUnit {
  const xml = fs.readFileSync(file, "utf8");
  expect(XMLValidator.validate(xml)).toBe(true);
  return junitParser.parse(xml) as JUnit;
}

/** The answer of --json: exactly one JSON document on stdout, in the API's shapes. */
function answerOf(stdout: string) {
  const answer = JSON.parse(stdout) as { ok: boolean; run: unknown; results: unknown[] };
  return {
    ok: answer.ok,
    run: evalRunSchema.parse(answer.run),
    results: answer.results.map((r) => evalResultSchema.parse(r)),
  };
}

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("agentfold eval on a local stack", () => {
  it("passes the support-desk example's evals and prints one JSON document", { timeout: 180_000 }, async () => {
    const result = await agentfold(["eval", "--dir", path.join(projectRoot, "examples", "support-desk"), "--json"]);
    expect(result.stderr).toContain("starting a local stack");
    expect(result.code).toBe(0);
    const answer = answerOf(result.stdout);
    expect(answer.ok).toBe(true);
    expect(answer.run).toMatchObject({ status: "passed", startedBy: "the CLI", counts: { total: 2, passed: 2 } });
    expect(answer.results.map((r) => r.caseId).sort()).toEqual(["refunds/asks-approval", "refunds/explains-timing"]);
    expect(result.stderr).toMatch(/✓ refunds\/asks-approval {2}\d+\.\d s/);
    expect(result.stderr).toContain("run passed: 2 passed, 0 failed, 0 errored");
  });

  it("exits 1 on a failed assertion or an error, says why, and writes a JUnit report", {
    timeout: 180_000,
  }, async () => {
    const dir = writeFiles(path.join(scratch, "mixed"), mixedFolder);
    const report = path.join(scratch, "reports", "evals.xml");
    const result = await agentfold(["eval", "--dir", dir, "--junit", report, "--json"]);
    expect(result.code).toBe(1);
    // Each failed case with its failed assertion's message (or its error) under it.
    expect(result.stderr).toMatch(/✗ greets\/wrong {2}\d+\.\d s\n {4}expected ".*You said.*" to include "Bonjour"\n/);
    expect(result.stderr).toContain("✗ broken  error");
    expect(result.stderr).toContain("    error: the <fixture> & its tool broke");
    expect(result.stderr).toContain("✓ greets/echoes");
    const answer = answerOf(result.stdout);
    expect(answer.ok).toBe(false);
    expect(answer.run.counts).toMatchObject({ total: 3, passed: 1, failed: 1, errored: 1 });

    const { testsuites } = readJUnit(report);
    expect(testsuites).toMatchObject({ tests: "3", failures: "1", errors: "1" });
    const suites = Object.fromEntries(testsuites.testsuite.map((s) => [s.name, s]));
    expect(Object.keys(suites).sort()).toEqual(["evals/broken.eval.ts", "evals/greets.eval.ts"]);
    const greets = suites["evals/greets.eval.ts"]!;
    expect(greets).toMatchObject({ tests: "2", failures: "1", errors: "0" });
    const wrong = greets.testcase.find((c) => c.name === "greets/wrong")!;
    expect(wrong.classname).toBe("greets");
    expect(Number(wrong.time)).toBeGreaterThan(0);
    expect(wrong.failure?.message).toMatch(/to include "Bonjour"$/);
    expect(greets.testcase.find((c) => c.name === "greets/echoes")?.failure).toBeUndefined();
    expect(suites["evals/broken.eval.ts"]!.testcase[0]!.error?.message).toBe("the <fixture> & its tool broke");
  });

  it("runs only the selected cases, each as often as --iterations says", { timeout: 180_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "selected"), mixedFolder);
    const report = path.join(scratch, "selected.xml");
    const result = await agentfold([
      "eval",
      "--dir",
      dir,
      "--tag",
      "smoke",
      "--id",
      "greets/echoes",
      "--iterations",
      "2",
      "--junit",
      report,
    ]);
    expect(result.stderr).toContain("✓ greets/echoes  2/2 passed");
    expect(result.code).toBe(0);
    // Without --json, stdout stays empty: everything a person reads is on stderr.
    expect(result.stdout).toBe("");
    const names = readJUnit(report).testsuites.testsuite.flatMap((s) => s.testcase.map((c) => c.name));
    expect(names).toEqual(["greets/echoes #1", "greets/echoes #2"]);
  });

  it("lists the case ids and tags without starting anything", { timeout: 60_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "listed"), mixedFolder);
    const all = await agentfold(["eval", "--dir", dir, "--list"]);
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split("\n").sort()).toEqual([
      "broken  [slow]",
      "greets/echoes  [smoke]",
      "greets/wrong  [smoke, french]",
    ]);
    expect(all.stderr).not.toContain("starting a local stack");
    const smoke = await agentfold(["eval", "--dir", dir, "--list", "--tag", "smoke", "--json"]);
    expect(JSON.parse(smoke.stdout).cases.map((c: { id: string }) => c.id)).toEqual(["greets/echoes", "greets/wrong"]);
  });

  it("answers a command line it cannot act on with exit 2", { timeout: 120_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "usage"), mixedFolder);
    const iterations = await agentfold(["eval", "--dir", dir, "--iterations", "0"]);
    expect(iterations.code).toBe(2);
    expect(iterations.stderr).toContain("--iterations must be a whole number from 1 to 100");
    const noToken = await agentfold(["eval", "--dir", dir, "--url", "http://127.0.0.1:1"]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("no token for http://127.0.0.1:1: agentfold login");
    const nothing = await agentfold(["eval", "--dir", dir, "--id", "greets/nope"]);
    expect(nothing.stderr).toContain('no eval case matches {"ids":["greets/nope"]}');
    expect(nothing.code).toBe(2);
  });

  it("exits 1 with the folder's problems when it is not a valid agent", { timeout: 120_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "invalid"), {
      "bot/instructions.md": "x",
      "evals/bad.eval.ts": evalFile("defineEval({ tags: [] })"),
    });
    const listed = await agentfold(["eval", "--dir", dir, "--list"]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain("error: evals/bad.eval.ts:2: defineEval: give test or cases");
    const run = await agentfold(["eval", "--dir", dir]);
    expect(run.stderr).toContain("error: evals/bad.eval.ts:2: defineEval: give test or cases");
    expect(run.stderr).toContain("nothing ran");
    expect(run.code).toBe(1);
  });
});

/** The processes a process started and that still run (not zombies), with their commands. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  const out = execFileSync("ps", ["-o", "pid=,stat=,args=", "--ppid", String(pid)], { encoding: "utf8" });
  return out.split("\n").flatMap((line) => {
    const [, child, stat, command] = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line) ?? [];
    return child && !stat!.startsWith("Z") ? [{ pid: Number(child), command: command! }] : [];
  });
}

/** Whether a process runs: it exists and is not a zombie (which no signal can remove). */
function isRunning(pid: number): boolean {
  try {
    return !execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" })
      .trim()
      .startsWith("Z");
  } catch {
    return false;
  }
}

describe("agentfold eval interrupted", () => {
  it("stops the local stack on Ctrl-C and exits 130", { timeout: 120_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "slow"), {
      "bot/instructions.md": "x",
      "evals/slow.eval.ts": evalFile(
        `defineEval({ test: async (t) => { await t.send("Wait [delay 60s]"); t.succeeded(); } })`,
      ),
    });
    const child = spawn(process.execPath, [cliBin, "eval", "--dir", dir], { cwd: scratch, env: cliEnv });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await waitFor("the run to start", async () => stderr.includes("running 1 case"), { timeoutMs: 90_000 });
    // Postgres and Restate run in process groups of their own: Ctrl-C at a terminal never reaches them.
    const stack = childrenOf(child.pid!).filter((p) => /postgres|restate-server/.test(p.command));
    expect(stack.map((p) => p.command).join("\n")).toMatch(
      /postgres[\s\S]*restate-server|restate-server[\s\S]*postgres/,
    );
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("interrupted; stopping the local stack");
    expect(stack.filter((p) => isRunning(p.pid))).toEqual([]);
  });
});

describe("agentfold eval against an instance", () => {
  let h: Harness;
  let agent: AgentRef;
  let web: V1Server;
  let token = "";
  let closeWeb = async () => {};

  beforeAll(async () => {
    h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
    agent = await h.deploy("desk", mixedFolder);
    const { restateIngress, restateAdmin } = h.ports();
    Object.assign(process.env, {
      DATABASE_URL: poolOf(h.db).options.connectionString,
      AGENTFOLD_DATA_DIR: h.dataDir,
      RESTATE_INGRESS_URL: restateIngress,
      RESTATE_ADMIN_URL: restateAdmin,
    });
    const scopes = ["evals:run", "sessions:read"];
    token = (
      await createToken({ db: h.db, teamId: agent.teamId, name: "ci", actions: scopes, agentSlugs: [agent.slug] })
    ).token;
    // The worker read (and cached) the environment first: the web's modules are loaded anew.
    vi.resetModules();
    const { startV1Server } = await import("@/testing/v1-server");
    const platform = await import("@/server/http/platform");
    const credentials = await import("@/server/auth/credential-cache");
    web = await startV1Server();
    closeWeb = async () => {
      await web.close();
      await (await platform.eventHub()).close().catch(() => undefined);
      await (await credentials.processCredentialCache(process.env.DATABASE_URL!))?.close();
    };
  }, 180_000);

  afterAll(async () => {
    await closeWeb();
    await h?.close();
  });

  it("runs the deployed agent's evals there, follows the run to its end and reports it", {
    timeout: 120_000,
  }, async () => {
    const report = path.join(scratch, "remote.xml");
    const args = ["eval", "--url", web.url, "--token", token, "--slug", agent.slug, "--json", "--junit", report];
    const result = await agentfold(args);
    expect(result.stderr).not.toContain("starting a local stack");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/✗ greets\/wrong {2}\d+\.\d s\n {4}expected ".*" to include "Bonjour"\n/);
    const answer = answerOf(result.stdout);
    expect(answer.run).toMatchObject({
      status: "error",
      startedBy: "token ci",
      counts: { total: 3, passed: 1, failed: 1, errored: 1 },
    });
    // The stream passed on every result: the report has them all, with the run's final states.
    const { testsuites } = readJUnit(report);
    expect(testsuites).toMatchObject({ tests: "3", failures: "1", errors: "1" });

    // A passing selection, with the instance and token from the environment.
    const env = { AGENTFOLD_URL: web.url, AGENTFOLD_TOKEN: token };
    const passing = await agentfold(["eval", "--slug", agent.slug, "--id", "greets/echoes"], env);
    expect(passing.stderr).toContain("✓ greets/echoes");
    expect(passing.code).toBe(0);

    const listed = await agentfold(["eval", "--slug", agent.slug, "--list"], env);
    expect(listed.stdout.trim().split("\n").sort()).toEqual([
      "broken  [slow]",
      "greets/echoes  [smoke]",
      "greets/wrong  [smoke, french]",
    ]);

    // A session of the run, drafted into an eval file under the folder's evals/.
    const sessionId = answer.results.find((r) => r.caseId === "greets/echoes")!.sessionIds[0]!;
    const dir = path.join(scratch, "drafts");
    const drafted = await agentfold(
      ["eval", "new", "--from-session", sessionId, "--dir", dir, "--slug", agent.slug],
      env,
    );
    expect(drafted.code).toBe(0);
    const written = path.resolve(scratch, drafted.stdout.trim());
    expect(path.relative(path.join(dir, "evals"), written)).toMatch(/^[a-z0-9-]+\.eval\.ts$/);
    expect(fs.readFileSync(written, "utf8")).toContain("Hello there");
    const again = await agentfold(
      ["eval", "new", "--from-session", sessionId, "--dir", dir, "--slug", agent.slug],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("exists; pass --force to replace it");
  });

  it("says what the instance refused", { timeout: 60_000 }, async () => {
    const wrongToken = await agentfold(["eval", "--url", web.url, "--token", "af_not_a_token", "--slug", agent.slug]);
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/agentfold: .*(token|credentials)/i);
    const noMatch = await agentfold([
      "eval",
      "--url",
      web.url,
      "--token",
      token,
      "--slug",
      agent.slug,
      "--tag",
      "none",
    ]);
    expect(noMatch.code).toBe(2);
    expect(noMatch.stderr).toContain("no eval case matches");
  });
});
