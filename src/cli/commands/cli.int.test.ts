// The agentfold CLI as a user runs it: a real process, real folders, exit codes and output.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { writeFiles } from "@/testing/folders";

const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-cli-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// No instance, no database, no saved login unless a test names one.
const cliEnv: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: path.join(scratch, "config") };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL"]) delete cliEnv[name];

async function agentfold(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return agentfoldWith({}, ...args);
}

async function agentfoldWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(projectRoot, "bin", "agentfold.mjs"), ...args], {
      cwd: scratch,
      env: { ...cliEnv, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("agentfold init, validate, info", () => {
  it("scaffolds a folder that validates and describes itself", { timeout: 60_000 }, async () => {
    const created = await agentfold("init", "fresh-agent");
    expect(created.code).toBe(0);
    const validated = await agentfold("validate", "--dir", "fresh-agent");
    expect(validated).toMatchObject({ code: 0 });
    expect(validated.stdout).toContain("fresh-agent: 0 errors, 0 warnings");
    const info = await agentfold("info", "--dir", "fresh-agent", "--json");
    const surface = JSON.parse(info.stdout);
    expect(surface.agent.tools[0]).toMatchObject({ name: "greet", effect: "read", execution: "server" });
    expect(surface.agent.skills[0]).toMatchObject({ name: "tone", description: "How to phrase answers" });
    expect(surface.agent.hooks).toEqual([
      expect.objectContaining({ name: "memory", events: expect.arrayContaining(["turn.completed", "turn.failed"]) }),
    ]);
    expect(fs.readFileSync(path.join(scratch, "fresh-agent", "bot", "instructions.md"), "utf8")).toContain("## Memory");
  });

  it("prints the manifest as JSON and the version; a broken folder's manifest exits 1", {
    timeout: 60_000,
  }, async () => {
    await agentfold("init", "manifested");
    const printed = await agentfold("manifest", "--dir", "manifested");
    expect(printed.code).toBe(0);
    const manifest = JSON.parse(printed.stdout);
    expect(manifest).toMatchObject({ root: "bot", tools: [expect.objectContaining({ name: "greet" })] });
    // A folder of its own: the test below writes its own "broken" folder.
    writeFiles(path.join(scratch, "unmanifested"), {
      "bot/instructions.md": "x",
      "bot/tools/bad.ts": "export default 42;",
    });
    const broken = await agentfold("manifest", "--dir", "unmanifested");
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(/^error: bot\/tools\/bad.ts:1: /m);
    const version = await agentfold("version", "--json");
    expect(JSON.parse(version.stdout)).toEqual({
      version: JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")).version,
      node: process.versions.node,
    });
  });

  it("refuses to scaffold into a folder that is not empty", async () => {
    writeFiles(path.join(scratch, "taken"), { "file.txt": "x" });
    const result = await agentfold("init", "taken");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not empty");
  });

  it("validates the hello example cleanly", { timeout: 60_000 }, async () => {
    const result = await agentfold("validate", "--dir", path.join(projectRoot, "examples", "hello"));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("hello: 0 errors, 0 warnings");
  });

  it("validates the support-desk example, which uses every capability, cleanly", { timeout: 60_000 }, async () => {
    const dir = path.join(projectRoot, "examples", "support-desk");
    const result = await agentfold("validate", "--dir", dir);
    expect(result.stdout).toContain("Support desk: 0 errors, 0 warnings");
    expect(result.code).toBe(0);
    const info = await agentfold("info", "--dir", dir);
    // defineAgent's name, not the package's.
    expect(info.stdout).toMatch(/^Support desk — /);
    expect(info.stdout).toContain("webhook  POST /v1/channels/webhook/tickets");
    expect(info.stdout).toContain("issue_refund  [write, needs approval]");
  });

  it("lists every problem of a broken folder and exits 1", { timeout: 60_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "broken"), {
      "bot/tools/lookup.ts":
        'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "", execute: async () => 1 });\n',
      "bot/tools/remote.ts": 'import thing from "left-pad";\nexport default thing;\n',
      "bot/hooks/ci__audit.ts": "export default {};\n",
      "bot/skills/refunds/SKILL.md": "no frontmatter\n",
    });
    const result = await agentfold("validate", "--dir", dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error: the root agent has no instructions: add bot/instructions.md");
    expect(result.stdout).toContain("error: bot/hooks/ci__audit.ts: hook name 'ci__audit' must not contain '__'");
    expect(result.stdout).toContain(
      "error: bot/skills/refunds/SKILL.md: a packaged skill needs a `description` in its frontmatter",
    );
    expect(result.stdout).toContain("cannot resolve 'left-pad' from bot/tools/remote.ts");
    // A module that fails to bundle does not hide the load-time problems of the others.
    expect(result.stdout).toContain("error: bot/tools/lookup.ts:2: defineTool: description: must not be empty");
    expect(result.stdout).toContain("broken: 5 errors, 0 warnings");
  });

  it("reports load-time errors of each module", { timeout: 60_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "bad-defs"), {
      "bot/instructions.md": "x",
      "bot/tools/lookup.ts":
        'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "", execute: async () => 1 });\n',
      "bot/tools/plain.ts": "export default { description: 'not defined with defineTool' };\n",
    });
    const result = await agentfold("validate", "--dir", dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error: bot\/tools\/lookup.ts:2: defineTool: description/);
    expect(result.stdout).toContain("error: bot/tools/plain.ts:1: the default export is not defineTool(...)");
  });

  it("answers a usage error with exit 2", async () => {
    const result = await agentfold("frobnicate");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command: frobnicate");
  });
});

describe("agentfold --json for scripts", () => {
  it("validates as one JSON document, with the same exit codes", { timeout: 60_000 }, async () => {
    const created = await agentfold("init", "json-agent", "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      ok: true,
      name: "json-agent",
      dir: path.join(fs.realpathSync(scratch), "json-agent"),
      files: expect.arrayContaining(["bot/instructions.md", "bot/tools/greet.ts"]),
    });
    const valid = await agentfold("validate", "--dir", "json-agent", "--json");
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({
      ok: true,
      name: "json-agent",
      errors: 0,
      warnings: 0,
      diagnostics: [],
      secretNames: [],
    });
    writeFiles(path.join(scratch, "json-broken"), {
      "bot/instructions.md": "x",
      "bot/tools/plain.ts": "export default { description: 'not defined with defineTool' };\n",
      "bot/extra.txt": "not a capability",
    });
    const broken = await agentfold("validate", "--dir", "json-broken", "--json");
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      name: "json-broken",
      errors: 1,
      warnings: 1,
      diagnostics: expect.arrayContaining([
        { level: "error", file: "bot/tools/plain.ts", line: 1, message: "the default export is not defineTool(...)" },
        expect.objectContaining({ level: "warning", file: "bot/extra.txt" }),
      ]),
    });
  });

  it("describes one command as JSON: help <command> --json", async () => {
    const described = await agentfold("help", "token", "revoke", "--json");
    expect(described.code).toBe(0);
    const command = JSON.parse(described.stdout);
    expect(command).toMatchObject({ name: "token revoke", group: "remote" });
    expect(command.flags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "--token", type: "string", required: true }),
        expect.objectContaining({ name: "--json", type: "boolean" }),
      ]),
    );
    const group = JSON.parse((await agentfold("help", "token", "--json")).stdout);
    expect(group.commands.map((c: { name: string }) => c.name)).toEqual(["token create", "token revoke"]);
    const unknown = await agentfold("help", "frobnicate", "--json");
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toContain("no command 'frobnicate'");
  });

  it("bootstraps and revokes against the database with --json", { timeout: 60_000 }, async () => {
    const onDatabase = { DATABASE_URL: inject("databaseUrl") };
    const team = `json-${Date.now().toString(36)}`;
    const created = await agentfoldWith(onDatabase, "team", "create", "--team", team, "--json");
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ ok: true, team: { slug: team, name: team } });
    const minted = await agentfoldWith(
      onDatabase,
      ...["token", "create", "--team", team, "--actions", "sessions:read", "--name", "ci", "--json"],
    );
    expect(minted.code, minted.stderr).toBe(0);
    const token = JSON.parse(minted.stdout);
    expect(token).toMatchObject({ name: "ci", actions: ["sessions:read"], agents: [], expiresAt: null });
    expect(token.token).toMatch(/^af_/);
    expect(token.token.startsWith(token.prefix)).toBe(true);

    const revoked = await agentfoldWith(onDatabase, "token", "revoke", "--token", token.token, "--json");
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ ok: true, revoked: true, instance: null });
    // Revoked already: exit 1, the reason on stderr, nothing on stdout.
    const again = await agentfoldWith(onDatabase, "token", "revoke", "--token", token.token, "--json");
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toContain("no such active token");
  });
});
