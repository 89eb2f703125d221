// The agentfold CLI as a user runs it: a real process, real folders, exit codes and output.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { writeFiles } from "@/testing/folders";

const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-cli-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function agentfold(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(projectRoot, "bin", "agentfold.mjs"), ...args], {
      cwd: scratch,
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
