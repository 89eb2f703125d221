// The MCP client pool on its own, against a real SDK-written server: one client per version and
// connection, shared by its uses, closed after its idle time, reopened when a secret its
// templates read changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { startRemoteMcpServer, type RemoteMcpServer } from "@/testing/mcp/remote-mcp-server";
import { createConnectionPool, type ConnectionTarget } from "./connection-pool";

let remote: RemoteMcpServer;

beforeAll(async () => {
  remote = await startRemoteMcpServer();
});

afterAll(async () => {
  await remote?.close();
});

const target = (versionId: string): ConnectionTarget => ({
  agentId: "agent-1",
  spec: { versionId, bundlePath: "/nowhere/bundle.mjs", projectDir: "/nowhere", agentDir: "/nowhere" },
  connection: {
    name: "srv",
    file: "bot/mcp-connections/srv.ts",
    scope: "mcp",
    config: { form: "remote", url: remote.url, headers: { authorization: "Bearer ${TOKEN}" } },
  },
});

describe("the MCP connection pool", () => {
  it("shares one client per version, closes it when idle, and reopens it for a new secret", async () => {
    const secrets: Record<string, string> = { TOKEN: "one" };
    const pool = createConnectionPool({
      sandboxes: () => ({}) as SandboxPool,
      readSecrets: async () => ({ ...secrets }),
      reach: async () => ({ policy: { kind: "open" }, privateHosts: [remote.hostPort] }),
      idleMs: 200,
    });
    const seen = () => remote.seenAuthorizations.length;
    const listed = await pool.tools(target("v1"));
    expect(listed.map((tool) => tool.name).sort()).toEqual(["echo", "lookup", "wipe"]);
    await pool.tools(target("v1"));
    await pool.tools(target("v2"));
    expect(pool.size()).toBe(2);
    // A second listing of v1 was the kept one: no request reached the server for it.
    const before = seen();
    await pool.tools(target("v1"));
    expect(seen()).toBe(before);

    secrets.TOKEN = "two";
    const answer = await pool.callTool(target("v1"), "echo", { x: 2 });
    expect(JSON.stringify(answer)).toContain("Bearer two");
    expect(pool.size()).toBe(2);

    await expect.poll(() => pool.size(), { timeout: 5_000 }).toBe(0);
    await pool.closeAll();
  });
});
