// Uploaded code is contained: each escape attempt becomes an error result, and the sandbox keeps
// serving the next call.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import type { ToolCallContext } from "@/agents/sandbox/protocol";
import { createSandbox, type Sandbox } from "@/agents/sandbox/sandbox";
import { runTool } from "./run-tool";
import { writeFiles } from "@/testing/folders";

const tool = (body: string, extra = "") => `import { defineTool } from "agentfold/tools";
import fs from "node:fs";
export default defineTool({ description: "test tool", effect: "read",${extra}
  async execute(input, ctx) { ${body} } });
`;

const escapeTarget = path.join(os.tmpdir(), `agentfold-escape-${process.pid}.txt`);

const fixture: Record<string, string> = {
  "bot/instructions.md": "Test agent.",
  "bot/tools/echo.ts": tool("return { echoed: input };"),
  "bot/tools/read_passwd.ts": tool('return fs.readFileSync("/etc/passwd", "utf8");'),
  "bot/tools/write_outside.ts": tool(`fs.writeFileSync(${JSON.stringify(escapeTarget)}, "escaped"); return "wrote";`),
  "bot/tools/write_workspace.ts": tool('fs.writeFileSync(ctx.workspaceDir + "/note.txt", "kept"); return "ok";'),
  "bot/tools/read_env.ts": tool(
    "return { keys: Object.keys(process.env).sort(), database: process.env.DATABASE_URL ?? null };",
  ),
  "bot/tools/spawn.ts": tool('const cp = await import("node:child_process"); return cp.execSync("id").toString();'),
  "bot/tools/hog.ts": tool("const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random()));"),
  "bot/tools/spin.ts": tool("for (;;) {}", " timeoutMs: 1000,"),
  "bot/tools/throws.ts": tool('throw new Error("lookup failed: no such order");'),
};

let root: string;
let loaded: LoadedAgent;
let sandbox: Sandbox;
let workspace: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-runtool-"));
  const folder = path.join(root, "agent");
  writeFiles(folder, fixture);
  loaded = await loadAgentFolder({ folderDir: folder, outDir: path.join(root, "bundle") });
  workspace = path.join(root, "workspaces", "ses_1");
  process.env.DATABASE_URL ??= "postgresql://secret@127.0.0.1/should-not-leak";
  sandbox = createSandbox({
    bundlePath: loaded.bundlePath!,
    writableDirs: [workspace],
    env: { SUPPORT_API_KEY: "declared-secret" },
    memoryMb: 64,
  });
});

afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(escapeTarget, { force: true });
});

const context: () => ToolCallContext = () => ({
  toolCallId: "call_1",
  session: { id: "ses_1", channel: "http", mode: "chat", auth: null, purpose: "live", dryRun: false },
  workspaceDir: workspace,
  stateRoot: workspace,
});

async function call(name: string, input: unknown = {}) {
  const manifest = loaded.manifest!.tools.find((t) => t.name === name)!;
  return runTool({ sandbox, tool: manifest, input, context: context() });
}

describe("tools in the sandbox", () => {
  it("loads cleanly", () => {
    expect(loaded.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(loaded.manifest!.tools).toHaveLength(Object.keys(fixture).length - 1);
  });

  it("runs a tool and returns its JSON output", async () => {
    expect(await call("echo", { order: 42 })).toEqual({ ok: true, output: { echoed: { order: 42 } } });
  });

  it("turns a thrown error into an error result", async () => {
    expect(await call("throws")).toEqual({ ok: false, error: "lookup failed: no such order" });
  });

  it("cannot read files outside its bundle and workspace", async () => {
    const result = await call("read_passwd");
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toMatch(/access|permission/i);
  });

  it("cannot write outside its workspace, and can write inside it", async () => {
    expect((await call("write_outside")).ok).toBe(false);
    expect(fs.existsSync(escapeTarget)).toBe(false);
    expect(await call("write_workspace")).toEqual({ ok: true, output: "ok" });
    expect(fs.readFileSync(path.join(workspace, "note.txt"), "utf8")).toBe("kept");
  });

  it("sees only its declared secrets in its environment", async () => {
    // Beside the secrets: a home and temp folder (the private /tmp), the working directory and the
    // egress proxy's address.
    const keys = ["HOME", "HTTPS_PROXY", "HTTP_PROXY", "PWD", "SUPPORT_API_KEY", "TMPDIR", "http_proxy", "https_proxy"];
    expect(await call("read_env")).toEqual({ ok: true, output: { keys, database: null } });
  });

  it("cannot spawn processes", async () => {
    const result = await call("spawn");
    expect(result.ok).toBe(false);
  });

  it("is stopped when it allocates without bound, and the next call works", async () => {
    const result = await call("hog");
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toMatch(/memory/);
    expect(await call("echo", { after: "hog" })).toEqual({ ok: true, output: { echoed: { after: "hog" } } });
  });

  it("is stopped when a call loops past its timeout, and the next call works", async () => {
    const startedAt = Date.now();
    const result = await call("spin");
    expect(result).toEqual({ ok: false, error: "spin: the call did not finish within 1 s; the sandbox was restarted" });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(await call("echo", { after: "spin" })).toEqual({ ok: true, output: { echoed: { after: "spin" } } });
  });
});
