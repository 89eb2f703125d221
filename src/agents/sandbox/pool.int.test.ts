import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder } from "@/agents/loader/load-agent";
import { ensureWorkspaceDir } from "@/agents/runtime/workspace-owner";
import { createSandboxPool } from "./pool";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-pool-"));
const bundles: string[] = [];
const pool = createSandboxPool();

beforeAll(async () => {
  for (const version of ["v1", "v2"]) {
    const dir = path.join(root, version, "source");
    fs.mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
    fs.writeFileSync(path.join(dir, "bot", "instructions.md"), "x");
    fs.writeFileSync(
      path.join(dir, "bot", "tools", "where.ts"),
      `import { defineTool } from "agentfold/tools";\nimport fs from "node:fs";\nexport default defineTool({ description: "writes", async execute(_, ctx) { fs.writeFileSync(ctx.workspaceDir + "/v.txt", "${version}"); return "${version}"; } });`,
    );
    bundles.push((await loadAgentFolder({ folderDir: dir, outDir: path.join(root, version, "bundle") })).bundlePath!);
  }
}, 60_000);
afterAll(async () => {
  await pool.stopAll();
  fs.rmSync(root, { recursive: true, force: true });
});

const agentDir = path.join(root, "agent");
const spec = (index: number) => ({
  versionId: `v${index + 1}`,
  bundlePath: bundles[index]!,
  projectDir: path.join(root, `v${index + 1}`, "source"),
  agentDir,
});
const context = (session: string) => ({
  toolCallId: "c1",
  session: { id: session, channel: "http", mode: "chat" as const, auth: null, purpose: "live" as const, dryRun: false },
  workspaceDir: path.join(agentDir, "workspaces", session),
  stateRoot: path.join(agentDir, "state"),
});

describe("sandbox pool", () => {
  it("keeps one sandbox per version, shared by its sessions", async () => {
    expect(pool.forVersion(spec(0))).toBe(pool.forVersion(spec(0)));
    ensureWorkspaceDir(context("ses_a").workspaceDir);
    ensureWorkspaceDir(context("ses_b").workspaceDir);
    const first = await pool
      .forVersion(spec(0))
      .call("runTool", { file: "bot/tools/where.ts", input: {}, context: context("ses_a") });
    const second = await pool
      .forVersion(spec(1))
      .call("runTool", { file: "bot/tools/where.ts", input: {}, context: context("ses_b") });
    expect([first, second]).toEqual([
      { ok: true, output: "v1" },
      { ok: true, output: "v2" },
    ]);
    expect(pool.size()).toBe(2);
    expect(pool.forVersion(spec(0)).pid()).not.toBe(pool.forVersion(spec(1)).pid());
    expect(fs.readFileSync(path.join(context("ses_b").workspaceDir, "v.txt"), "utf8")).toBe("v2");
  });

  it("stops every sandbox", async () => {
    const sandbox = pool.forVersion(spec(0));
    await pool.stopAll();
    expect(sandbox.pid()).toBeUndefined();
    expect(pool.size()).toBe(0);
  });
});
