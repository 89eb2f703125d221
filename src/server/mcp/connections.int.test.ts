// MCP client connections as a turn meets them, against real MCP servers written with the SDK: a
// remote one on this machine (listed in the worker's private MCP hosts) and a stdio one shipped
// in the agent's folder, run inside the sandbox. Tools are offered as <connection>__<tool>,
// `${NAME}` templates carry the agent's secrets, an optional connection that is down is left out,
// a required one fails the turn with "Reconnect <name>", host-connections reach only
// ctx.host.mcp, and a server's destructive tool waits for approval.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import type { AgentRef } from "@/server/sessions/start-session";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { setSecret } from "@/server/secrets/set-secret";
import { startHelpdeskServer } from "../../../examples/helpdesk-mcp/server";
import { readFiles } from "@/testing/folders";
import { startRemoteMcpServer, type RemoteMcpServer } from "@/testing/mcp/remote-mcp-server";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let remote: RemoteMcpServer;
let downUrl: string;
let stdioServer: string;

const connection = (config: object) =>
  `import { defineConnection } from "agentfold/connections";\nexport default defineConnection(${JSON.stringify(config)});\n`;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  remote = await startRemoteMcpServer();
  const downPort = await closedPort();
  downUrl = `http://127.0.0.1:${downPort}/mcp`;
  const built = await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, "../../testing/mcp/stdio-mcp-server.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  stdioServer = built.outputFiles[0]!.text;
  h = await startTurnHarness({
    databaseUrl: inject("databaseUrl"),
    mcpPrivateHosts: [remote.hostPort, `127.0.0.1:${downPort}`, "127.0.0.1:4610"],
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await remote?.close();
});

const finished = (log: SessionEvent[]) => log.some((e) => e.type === "session.waiting" || e.type === "turn.failed");

async function turn(agent: AgentRef, message: string): Promise<SessionEvent[]> {
  const started = await h.start(agent, { message });
  return h.eventsUntil(started.sessionId, finished, 40_000);
}

/** Everything the model said in the turn, across its steps. */
const said = (log: SessionEvent[]) =>
  ofType(log, "message.appended")
    .map((e) => e.data.delta)
    .join("");
const results = (log: SessionEvent[]) => ofType(log, "action.result").map((e) => e.data);
const text = (output: unknown) =>
  ((output as { content?: { text?: string }[] })?.content ?? []).map((part) => part.text).join("\n");

describe("remote MCP connections", () => {
  let agent: AgentRef;

  beforeAll(async () => {
    agent = await h.deploy("mcp-remote", {
      "bot/instructions.md": "You use MCP servers.",
      "bot/mcp-connections/srv.ts": connection({
        url: remote.url,
        headers: { authorization: "Bearer ${SRV_TOKEN}" },
        advertiseTools: true,
      }),
      "bot/mcp-connections/later.ts": connection({ url: downUrl, optional: true, advertiseTools: true }),
      "bot/mcp-connections/tickets.ts": connection({ url: remote.url, description: "the ticket desk" }),
      "bot/host-connections/inventory.ts": connection({ url: remote.url }),
      "bot/tools/via_host.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "calls MCP from host code", effect: "read",
  async execute(_input, ctx) {
    const listed = await ctx.host.mcp.listTools("inventory");
    const answer = await ctx.host.mcp.callTool("inventory", "lookup", { id: "T-7" });
    return { names: ctx.host.mcp.names(), tools: listed.map((t) => t.name), answer };
  } });
`,
    });
    await setSecret({
      db: h.db,
      key: readOrCreateSecretKey(h.dataDir),
      agentId: agent.id,
      name: "SRV_TOKEN",
      value: "srv-secret-1",
    });
  });

  it("offers a server's tools as <connection>__<tool> and answers with the server's result, the secret in its header", {
    timeout: 60_000,
  }, async () => {
    const log = await turn(agent, '[call srv__echo {"x":1}]');
    expect(ofType(log, "turn.failed")).toEqual([]);
    const [result] = results(log);
    expect(result).toMatchObject({ toolName: "srv__echo", isError: false });
    expect(JSON.parse(text(result!.output))).toEqual({ echoed: { x: 1 }, authorization: "Bearer srv-secret-1" });
    // The secret's value reaches the server, never the event log.
    expect(remote.seenAuthorizations).toContain("Bearer srv-secret-1");
  });

  it("skips an optional connection that is down, and says so in the agent's log", { timeout: 60_000 }, async () => {
    const log = await turn(agent, '[call later__echo {}] [call srv__lookup {"id":"T-1"}]');
    expect(ofType(log, "turn.completed")).toHaveLength(1);
    expect(said(log)).toContain("There is no tool named later__echo");
    expect(results(log).map((r) => text(r.output))).toEqual(["ticket T-1: open"]);
    await expect
      .poll(
        async () =>
          (await h.db.agentLog.findMany({ where: { agentId: agent.id, level: "warn" } })).map((l) => l.message),
        { timeout: 10_000 },
      )
      .toEqual(expect.arrayContaining([expect.stringMatching(/^MCP connection later was left out of this turn/)]));
  });

  it("reaches connections that do not advertise their tools through the mcp tool", { timeout: 60_000 }, async () => {
    const log = await turn(
      agent,
      '[call mcp {"connection":"tickets"}] [call mcp {"connection":"tickets","tool":"lookup","arguments":{"id":"T-2"}}]',
    );
    const [listed, called] = results(log);
    expect((listed!.output as { name: string }[]).map((t) => t.name).sort()).toEqual(["echo", "lookup", "wipe"]);
    expect(text(called!.output)).toBe("ticket T-2: open");
    expect(said(log)).not.toContain("There is no tool named");
  });

  it("keeps host-connections from the model; agent code reaches them through ctx.host.mcp", {
    timeout: 60_000,
  }, async () => {
    const log = await turn(agent, "[call inventory__lookup {}] [call via_host {}]");
    expect(said(log)).toContain("There is no tool named inventory__lookup");
    const [viaHost] = results(log);
    expect(viaHost!.isError).toBe(false);
    const output = viaHost!.output as { names: string[]; tools: string[]; answer: unknown };
    expect(output.names).toEqual(["inventory", "later", "srv", "tickets"]);
    expect(output.tools.sort()).toEqual(["echo", "lookup", "wipe"]);
    expect(text(output.answer)).toBe("ticket T-7: open");
  });

  it("parks a tool its server marks destructive for approval", { timeout: 60_000 }, async () => {
    const started = await h.start(agent, { message: "[call srv__wipe {}]" });
    const log = await h.eventsUntil(started.sessionId, has("action.approval_requested"));
    expect(ofType(log, "action.approval_requested")[0]!.data.toolName).toBe("srv__wipe");
    expect(results(log)).toEqual([]);
    await h.stop(agent, started.sessionId);
  });

  it("fails the turn with Reconnect <name> when a required connection is down", { timeout: 60_000 }, async () => {
    const broken = await h.deploy("mcp-broken", {
      "bot/instructions.md": "You use a server that is down.",
      "bot/mcp-connections/down.ts": connection({ url: downUrl, advertiseTools: true }),
    });
    const log = await turn(broken, "hello");
    const [failed] = ofType(log, "turn.failed");
    expect(failed!.data).toMatchObject({ code: "connection_failed" });
    expect(failed!.data.message).toMatch(/^Reconnect down: /);
  });

  it("cannot reach this machine's other ports, as agent code cannot", { timeout: 60_000 }, async () => {
    const nosy = await h.deploy("mcp-nosy", {
      "bot/instructions.md": "You try to reach the engine.",
      "bot/mcp-connections/engine.ts": connection({ url: `${h.ports().restateAdmin}/mcp` }),
    });
    const log = await turn(nosy, "hello");
    expect(ofType(log, "turn.failed")[0]!.data.message).toMatch(/^Reconnect engine: .*not a public address/);
  });
});

describe("stdio MCP connections", () => {
  it("run the folder's server inside the sandbox, with secrets in its env and no way out", {
    timeout: 90_000,
  }, async () => {
    const agent = await h.deploy("mcp-stdio", {
      "bot/instructions.md": "You use a local MCP server.",
      "bot/mcp-connections/local.ts": connection({
        command: "node",
        args: ["mcp/server.mjs"],
        env: { GREETING: "${GREETING}" },
        advertiseTools: true,
      }),
      "mcp/server.mjs": stdioServer,
    });
    await setSecret({
      db: h.db,
      key: readOrCreateSecretKey(h.dataDir),
      agentId: agent.id,
      name: "GREETING",
      value: "Hej",
    });
    const secretFile = path.join(h.dataDir, "secret-key");
    expect(fs.existsSync(secretFile)).toBe(true);
    const probe = JSON.stringify({ url: h.ports().restateAdmin, file: secretFile });
    const log = await turn(agent, `[call local__echo {"text":"world"}] [call local__probe ${probe}]`);
    expect(ofType(log, "turn.failed")).toEqual([]);
    const [echo, probed] = results(log);
    expect(text(echo!.output)).toBe("Hej, world");
    const reached = JSON.parse(text(probed!.output)) as { fetch: string; read: string; uid: number };
    expect(reached.fetch).toMatch(/^refused/);
    expect(reached.read).toMatch(/^refused/);
    if (process.getuid?.() === 0) expect(reached.uid).toBe(65534);
  });
});

describe("examples/support-desk", () => {
  it("reaches the example helpdesk when it runs, and goes on without it when it does not", {
    timeout: 90_000,
  }, async () => {
    const desk = await h.deploy("desk", readFiles(path.join(import.meta.dirname, "../../../examples/support-desk")));
    await setSecret({
      db: h.db,
      key: readOrCreateSecretKey(h.dataDir),
      agentId: desk.id,
      name: "HELPDESK_TOKEN",
      value: "desk-token",
    });
    const helpdesk = await startHelpdeskServer({ token: "desk-token" });
    try {
      const log = await turn(desk, '[call helpdesk__get_ticket {"id":"T-100"}]');
      const [result] = results(log);
      expect(result).toMatchObject({ toolName: "helpdesk__get_ticket", isError: false });
      expect(JSON.parse(text(result!.output))).toMatchObject({ id: "T-100", subject: "Parcel A-1001 has not arrived" });
    } finally {
      await helpdesk.close();
    }
    // The open client learns the server is gone from its next call; the turn after that goes on
    // without the connection.
    const gone = await turn(desk, '[call helpdesk__get_ticket {"id":"T-100"}]');
    expect(results(gone)[0]).toMatchObject({ isError: true });
    const without = await turn(desk, '[call helpdesk__get_ticket {"id":"T-100"}]');
    expect(ofType(without, "turn.completed")).toHaveLength(1);
    expect(said(without)).toContain("There is no tool named helpdesk__get_ticket");
  });
});
