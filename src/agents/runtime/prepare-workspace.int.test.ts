// The session workspace (docs/agent-folders.md, "The session workspace"), laid out from the
// support-desk example.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import { projectRoot } from "@/cli/start/project";
import { prepareWorkspace } from "./prepare-workspace";

const sourceDir = path.join(projectRoot, "examples", "support-desk");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-workspace-"));
const bundleDir = path.join(root, "bundle");
const workspaceDir = path.join(root, "ws");
let loaded: LoadedAgent;

beforeAll(async () => {
  loaded = await loadAgentFolder({ folderDir: sourceDir, outDir: bundleDir });
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const read = (file: string) => fs.readFileSync(path.join(workspaceDir, file), "utf8");

describe("prepareWorkspace", () => {
  it("writes AGENTS.md, skills, seed files and per-send files", () => {
    prepareWorkspace({
      workspaceDir,
      sourceDir,
      bundleDir,
      manifest: loaded.manifest!,
      workspaceFiles: { "ticket/123.txt": "My parcel is late" },
    });
    expect(read("AGENTS.md")).toContain("You are Support Desk");
    expect(read("AGENTS.md")).toContain("### draft_reply");
    expect(read(".cursor/skills/refunds/SKILL.md")).toContain("description: The refund policy");
    expect(read(".cursor/skills/refunds/references/policy.md")).toContain("gift cards");
    expect(read(".cursor/skills/tone/SKILL.md")).toContain("Friendly, brief, concrete");
    expect(read(".cursor/skills/shipping/SKILL.md")).toContain("PostNord");
    expect(read("policies/returns.md")).toContain("30 days");
    expect(read("ticket/123.txt")).toBe("My parcel is late");
  });

  it("lands agent-executed tools as runnable scripts", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [".agentfold/tools/draft_reply.mjs", '{"points":["Your refund is on its way."]}'],
      { cwd: workspaceDir },
    );
    expect(JSON.parse(stdout)).toBe("Hi! Your refund is on its way. Best, Support Desk");
  });

  it("seeds only once, so later sends do not undo the agent's edits", () => {
    fs.writeFileSync(path.join(workspaceDir, "policies/returns.md"), "edited by the agent");
    prepareWorkspace({
      workspaceDir,
      sourceDir,
      bundleDir,
      manifest: loaded.manifest!,
      workspaceFiles: { "ticket/124.txt": "second" },
    });
    expect(read("policies/returns.md")).toBe("edited by the agent");
    expect(read("ticket/124.txt")).toBe("second");
  });

  it("refuses workspace files that would land outside the workspace, writing none of them", () => {
    for (const bad of ["../escape.txt", "/etc/cron.d/x", "a/../../escape.txt"]) {
      expect(() =>
        prepareWorkspace({
          workspaceDir,
          sourceDir,
          bundleDir,
          manifest: loaded.manifest!,
          workspaceFiles: { "ok.txt": "x", [bad]: "x" },
        }),
      ).toThrow(/outside the workspace/);
    }
    expect(fs.existsSync(path.join(workspaceDir, "ok.txt"))).toBe(false);
    expect(fs.existsSync(path.join(root, "escape.txt"))).toBe(false);
  });
});
