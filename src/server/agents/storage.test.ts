import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { adoptLegacyWorkspace, workspaceDir, workspacesRoot } from "./storage";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-storage-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("session workspaces", () => {
  it("are named by a keyed hash: stable, not the session id, not guessable from it", () => {
    const dir = workspaceDir(dataDir, "agt_1", "ses_1");
    expect(path.dirname(dir)).toBe(workspacesRoot(dataDir, "agt_1"));
    expect(path.basename(dir)).not.toContain("ses_1");
    expect(path.basename(dir)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(workspaceDir(dataDir, "agt_1", "ses_1")).toBe(dir);
    expect(workspaceDir(dataDir, "agt_1", "ses_2")).not.toBe(dir);
    const otherInstance = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-storage-"));
    expect(path.basename(workspaceDir(otherInstance, "agt_1", "ses_1"))).not.toBe(path.basename(dir));
    fs.rmSync(otherInstance, { recursive: true, force: true });
  });

  it("kept under the session id by an earlier version move to their new name, once", () => {
    const legacy = path.join(workspacesRoot(dataDir, "agt_2"), "ses_old");
    fs.mkdirSync(legacy, { recursive: true });
    fs.writeFileSync(path.join(legacy, "notes.md"), "kept");
    const dir = workspaceDir(dataDir, "agt_2", "ses_old");
    adoptLegacyWorkspace(dataDir, "agt_2", "ses_old", dir);
    expect(fs.readFileSync(path.join(dir, "notes.md"), "utf8")).toBe("kept");
    expect(fs.existsSync(legacy)).toBe(false);
    adoptLegacyWorkspace(dataDir, "agt_2", "ses_old", dir);
    expect(fs.existsSync(dir)).toBe(true);
  });
});
