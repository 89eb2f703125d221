// `agentfold run`, `call`, `trajectory` and `chat` as a user runs them: the real CLI in a child
// process, on throwaway local stacks of its own (run, call --dir) or against an instance's /v1
// routes over HTTP (call --url, chat, trajectory --url); `chat`'s REPL driven through a pty.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { waitFor } from "@/cli/start/wait";
import { poolOf } from "@/server/db";
import type { AgentRef } from "@/server/sessions/start-session";
import { createToken } from "@/server/tokens/create-token";
import { cliBin, runCli, terminalArgs } from "@/testing/cli-process";
import { readFiles } from "@/testing/folders";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import type { V1Server } from "@/testing/v1-server";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-session-cli-"));
const desk = path.join(projectRoot, "examples", "support-desk");

// No instance configured and no saved login: local stacks unless told.
const cliEnv: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: path.join(scratch, "config") };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL"]) delete cliEnv[name];
const agentfold = (args: string[]) => runCli(args, { cwd: scratch, env: cliEnv });

const lookup = '[call lookup_order {"orderId":"A-1001"}]';
const refund = '[call issue_refund {"orderId":"A-1001","reason":"arrived broken"}]';
const shapeKeys = ["reply", "sessionId", "status", "toolCalls", "turns", "usage"];

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("agentfold run and call on a local stack", () => {
  it("runs one turn and prints its tool calls, reply and usage as JSON", { timeout: 120_000 }, async () => {
    const result = await agentfold(["run", "--dir", desk, "--message", `Where is my order? ${lookup}`]);
    expect(result.stderr).toContain("starting a local stack");
    expect(result.code).toBe(0);
    const trajectory = JSON.parse(result.stdout);
    expect(Object.keys(trajectory).sort()).toEqual(shapeKeys);
    expect(trajectory).toMatchObject({
      sessionId: expect.stringMatching(/^ses_/),
      status: "completed",
      reply: expect.stringContaining("The lookup_order tool returned"),
      toolCalls: [{ tool: "lookup_order", input: { orderId: "A-1001" }, status: "completed", output: { found: true } }],
    });
    expect(trajectory.usage.inputTokens).toBeGreaterThan(0);
    expect(trajectory.turns[0].messages).toEqual([`Where is my order? ${lookup}`]);
  });

  it("stops at a call that needs approval, approves it with --approve, stubs it with --dry-run", {
    timeout: 180_000,
  }, async () => {
    const parked = await agentfold(["run", "--dir", desk, "--message", refund]);
    expect(parked.code).toBe(1);
    expect(parked.stderr).toContain("waits for approval of issue_refund: pass --approve");
    expect(JSON.parse(parked.stdout)).toMatchObject({
      status: "waiting",
      toolCalls: [{ tool: "issue_refund", status: "waiting" }],
    });

    const approved = await agentfold(["run", "--dir", desk, "--message", refund, "--approve"]);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({
      status: "completed",
      toolCalls: [
        {
          tool: "issue_refund",
          status: "completed",
          approval: { decision: "approved", by: "local:local" },
          output: { refunded: "A-1001", approvedBy: { kind: "local", id: "local" } },
        },
      ],
    });

    const dry = await agentfold(["run", "--dir", desk, "--message", refund, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).toolCalls[0]).toMatchObject({ tool: "issue_refund", stubbed: true });
  });

  it("calls a tool with no turn, in run's shape; a bad input is exit 2", { timeout: 120_000 }, async () => {
    const result = await agentfold(["call", "lookup_order", "--dir", desk, "--input", '{"orderId":"A-1001"}']);
    expect(result.code).toBe(0);
    const trajectory = JSON.parse(result.stdout);
    expect(Object.keys(trajectory).sort()).toEqual(shapeKeys);
    expect(trajectory.toolCalls).toEqual([
      expect.objectContaining({
        tool: "lookup_order",
        status: "completed",
        output: expect.objectContaining({ found: true }),
      }),
    ]);
    const invalid = await agentfold(["call", "lookup_order", "--dir", desk, "--input", "{nope"]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("--input must be JSON");
  });
});

describe("agentfold chat, call and trajectory against an instance", () => {
  let h: Harness;
  let agent: AgentRef;
  let web: V1Server;
  let token = "";
  let closeWeb = async () => {};
  const agentUrl = () => `${web.url}/${agent.slug}`;

  beforeAll(async () => {
    h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
    agent = await h.deploy("desk", readFiles(desk));
    const { restateIngress, restateAdmin } = h.ports();
    Object.assign(process.env, {
      DATABASE_URL: poolOf(h.db).options.connectionString,
      AGENTFOLD_DATA_DIR: h.dataDir,
      RESTATE_INGRESS_URL: restateIngress,
      RESTATE_ADMIN_URL: restateAdmin,
    });
    const scopes = ["sessions:read", "sessions:write", "tools:call"];
    token = (
      await createToken({ db: h.db, teamId: agent.teamId, name: "cli", actions: scopes, agentSlugs: [agent.slug] })
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

  it("chat --message --json, trajectory --url and trajectory --events agree", { timeout: 60_000 }, async () => {
    const chat = await agentfold(["chat", "--url", agentUrl(), "--token", token, "--message", lookup, "--json"]);
    expect(chat.code).toBe(0);
    const fromChat = JSON.parse(chat.stdout);
    expect(Object.keys(fromChat).sort()).toEqual(shapeKeys);
    expect(fromChat).toMatchObject({ status: "completed", toolCalls: [{ tool: "lookup_order", status: "completed" }] });

    const read = await agentfold([
      "trajectory",
      "--url",
      agentUrl(),
      "--token",
      token,
      "--session",
      fromChat.sessionId,
    ]);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(fromChat);

    const dump = await fetch(`${agentUrl()}/v1/session/${fromChat.sessionId}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const file = path.join(scratch, "trace.ndjson");
    fs.writeFileSync(file, `{"type":"heartbeat"}\n${await dump.text()}`);
    const fromFile = await agentfold(["trajectory", "--events", file]);
    expect(JSON.parse(fromFile.stdout)).toEqual(fromChat);

    const call = await agentfold([
      "call",
      "lookup_order",
      "--url",
      agentUrl(),
      "--token",
      token,
      "--input",
      '{"orderId":"A-1001"}',
    ]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).toolCalls[0]).toMatchObject({ tool: "lookup_order", status: "completed" });

    const noToken = await agentfold(["chat", "--url", "http://agents.example.com/desk", "--message", "hi"]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("no token for http://agents.example.com");
  });

  it("chats in a terminal: streams the reply, asks to approve a parked call, Ctrl-C stops a turn", {
    timeout: 90_000,
  }, async () => {
    // `script` gives the CLI a real pty; what we type goes in through it.
    const args = [cliBin, "chat", "--url", agentUrl(), "--token", token];
    const child = spawn("script", terminalArgs(args), { cwd: scratch, env: { ...cliEnv, TERM: "dumb" } });
    let screen = "";
    child.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const shows = (text: string, timeoutMs = 30_000) =>
      waitFor(`the chat to show ${JSON.stringify(text)}`, async () => screen.includes(text), { timeoutMs }).catch(
        (error: Error) => {
          throw new Error(`${error.message}; the screen ends with:\n${screen.slice(-1500)}`);
        },
      );
    try {
      await shows("you> ");
      child.stdin.write("Hello there\r");
      await shows('agent> You said: "Hello there"');
      await shows("tokens in");
      child.stdin.write(`Refund it ${refund}\r`);
      await shows("approve issue_refund");
      child.stdin.write("y\r");
      await shows("← issue_refund:");
      expect(screen).toContain("approved");
      const before = screen.length;
      child.stdin.write("Take your time [delay 30s]\r");
      await waitFor("the slow turn to start", async () => screen.slice(before).includes("Take your time"), {
        timeoutMs: 10_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child.stdin.write("\x03");
      await shows("turn stopped");
      child.stdin.write("/exit\r");
      expect(await exited).toBe(0);
      expect(screen).toMatch(/session ses_[0-9a-f]{32}/);
    } finally {
      child.kill();
    }
  });
});
