// The sandbox's life cycle and its entry points beyond tools: hooks and the result contract.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import { sleep, waitFor } from "@/cli/start/wait";
import type { SessionInfo } from "./protocol";
import { createSandbox, SandboxError } from "./sandbox";
import { writeFiles } from "@/testing/folders";

const fixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/tools/leak.ts":
    'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "leaks", async execute(input) { console.log(`token ${process.env.API_TOKEN}`); if (input.fail) throw new Error(`bad token ${process.env.API_TOKEN}`); return { token: process.env.API_TOKEN, gone: process.env.OLD_TOKEN ?? null }; } });',
  "bot/tools/late.ts":
    'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "logs after answering", async execute() { const token = process.env.API_TOKEN; setTimeout(() => console.log(`late ${token}`), 300); return "ok"; } });',
  "bot/tools/quit.ts":
    'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "exits", async execute() { process.exit(3); } });',
  "bot/hooks/audit.ts":
    'import { defineHook } from "agentfold/hooks";\nexport default defineHook({ events: { "turn.completed": async (e, ctx) => { console.log(`audit ${e.type} ${ctx.session.id}`); } } });',
  "bot/result.ts": `import { defineResult } from "agentfold/result";
import { z } from "zod";
export default defineResult({
  schema: z.object({ answer: z.string() }),
  async commit(text, ctx) {
    if (ctx.value.answer.includes("TODO")) ctx.reject("finish the answer");
    return { stored: ctx.value.answer.length };
  },
});`,
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-sandbox-"));
let loaded: LoadedAgent;
const session: SessionInfo = { id: "ses_1", channel: "http", mode: "chat", auth: null, purpose: "live", dryRun: false };

beforeAll(async () => {
  writeFiles(path.join(root, "agent"), fixture);
  loaded = await loadAgentFolder({ folderDir: path.join(root, "agent"), outDir: path.join(root, "bundle") });
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const sandboxFor = (options: { idleMs?: number; onLog?: (line: { text: string }) => void } = {}) =>
  createSandbox({ bundlePath: loaded.bundlePath!, writableDirs: [path.join(root, "ws")], ...options });

describe("sandbox life cycle", () => {
  it("stops when idle and starts again on the next call", async () => {
    const sandbox = sandboxFor({ idleMs: 200 });
    await sandbox.call("describe", {});
    const firstPid = sandbox.pid();
    expect(firstPid).toBeDefined();
    await waitFor("the idle sandbox to stop", async () => sandbox.pid() === undefined, { timeoutMs: 5_000 });
    await sandbox.call("describe", {});
    expect(sandbox.pid()).not.toBe(firstPid);
    await sandbox.stop();
  });

  it("reports a process that exits mid-call as crashed, and restarts", async () => {
    const sandbox = sandboxFor();
    const error = await sandbox
      .call("runTool", {
        file: "bot/tools/quit.ts",
        input: {},
        context: { toolCallId: "c", session, workspaceDir: root, stateRoot: root },
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ reason: "crashed", message: "the sandbox exited (code 3) and was restarted" });
    expect((await sandbox.call("describe", {})).length).toBeGreaterThan(0);
    await sandbox.stop();
  });
});

describe("secrets", () => {
  it("reach agent code at call time, and never come back in results, errors or logs", async () => {
    let secrets: Record<string, string> = { API_TOKEN: "tok-first-1234", OLD_TOKEN: "tok-old-5678" };
    const lines: string[] = [];
    const sandbox = createSandbox({
      bundlePath: loaded.bundlePath!,
      writableDirs: [path.join(root, "ws")],
      readSecrets: async () => secrets,
      onLog: (line) => lines.push(line.text),
    });
    const context = { toolCallId: "c", session, workspaceDir: root, stateRoot: root };
    expect(await sandbox.call("runTool", { file: "bot/tools/leak.ts", input: {}, context })).toEqual({
      ok: true,
      output: { token: "[secret]", gone: "[secret]" },
    });
    // Rotated and one removed: the next call sees it, with no restart.
    const pid = sandbox.pid();
    secrets = { API_TOKEN: "tok-second-9876" };
    expect(await sandbox.call("runTool", { file: "bot/tools/leak.ts", input: {}, context })).toEqual({
      ok: true,
      output: { token: "[secret]", gone: null },
    });
    expect(sandbox.pid()).toBe(pid);
    expect(await sandbox.call("runTool", { file: "bot/tools/leak.ts", input: { fail: true }, context })).toEqual({
      ok: false,
      error: "bad token [secret]",
    });
    await sleep(100);
    expect(lines.filter((line) => line.startsWith("token"))).toEqual([
      "token [secret]",
      "token [secret]",
      "token [secret]",
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/tok-(first|second|old)/);
    await sandbox.stop();
  });

  it("mask a rotated-out value in a line agent code writes after the rotation", async () => {
    let secrets: Record<string, string> = { API_TOKEN: "tok-before-1111" };
    const lines: string[] = [];
    const sandbox = createSandbox({
      bundlePath: loaded.bundlePath!,
      writableDirs: [path.join(root, "ws")],
      readSecrets: async () => secrets,
      onLog: (line) => lines.push(line.text),
    });
    const context = { toolCallId: "c", session, workspaceDir: root, stateRoot: root };
    expect(await sandbox.call("runTool", { file: "bot/tools/late.ts", input: {}, context })).toMatchObject({
      ok: true,
    });
    // The next call hands over the new value before the first call's late line is written.
    secrets = { API_TOKEN: "tok-after-2222" };
    expect(await sandbox.call("runTool", { file: "bot/tools/leak.ts", input: {}, context })).toMatchObject({
      ok: true,
    });
    await waitFor("the late line", async () => lines.some((line) => line.startsWith("late")), { timeoutMs: 5_000 });
    expect(lines.filter((line) => line.startsWith("late"))).toEqual(["late [secret]"]);
    expect(JSON.stringify(lines)).not.toMatch(/tok-(before|after)/);
    await sandbox.stop();
  });
});

describe("hook entry point", () => {
  it("runs the handler for the event type and passes the agent's output to the platform's log", async () => {
    const lines: string[] = [];
    const sandbox = sandboxFor({ onLog: (line) => lines.push(line.text) });
    const handled = await sandbox.call("runHook", {
      file: "bot/hooks/audit.ts",
      event: { type: "turn.completed" },
      context: { session },
    });
    expect(handled).toEqual({ ok: true, handled: 1 });
    expect(
      await sandbox.call("runHook", {
        file: "bot/hooks/audit.ts",
        event: { type: "turn.started" },
        context: { session },
      }),
    ).toEqual({ ok: true, handled: 0 });
    await sleep(100);
    expect(lines).toContain("audit turn.completed ses_1");
    await sandbox.stop();
  });
});

describe("result contract entry point", () => {
  const cases: [string, string, unknown][] = [
    ["fails an empty reply", "  ", { outcome: "failed", message: "the reply is empty" }],
    [
      "asks for a repair when the reply is not JSON",
      "hello",
      { outcome: "rejected", message: "the reply must be JSON matching the result schema" },
    ],
    [
      "asks for a repair when commit rejects",
      '{"answer":"TODO later"}',
      { outcome: "rejected", message: "finish the answer" },
    ],
    [
      "commits and returns commit's value",
      '```json\n{"answer":"42"}\n```',
      { outcome: "committed", result: { stored: 2 } },
    ],
  ];
  for (const [name, text, expected] of cases) {
    it(name, async () => {
      const sandbox = sandboxFor();
      expect(await sandbox.call("runResult", { file: "bot/result.ts", text, session })).toEqual(expected);
      await sandbox.stop();
    });
  }
});
