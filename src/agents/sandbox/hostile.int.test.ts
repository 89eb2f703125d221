// Hostile tools against a real bubblewrap sandbox: each tries one way out and must fail, while
// the host keeps listening where the attack aims (so a connection that got through would show).
// Node's permission model (the inner wall) is off here: these prove the outer wall on its own.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import { ensureWorkspaceDir } from "@/agents/runtime/workspace-owner";
import { writeFiles } from "@/testing/folders";
import { createSandboxPool } from "./pool";
import type { ToolCallContext } from "./protocol";

const tool = (body: string, extra = "") => `import { defineTool } from "agentfold/tools";
import fs from "node:fs";
import net from "node:net";
export default defineTool({ description: "hostile", effect: "read",${extra}
  async execute(input, ctx) { ${body} } });
`;

// Resolves with "connected" or the error code; never throws.
const tryConnect = `return await new Promise((resolve) => {
  const socket = net.connect({ host: input.host, port: input.port });
  socket.once("connect", () => (socket.destroy(), resolve("connected")));
  socket.once("error", (error) => resolve(error.code ?? error.message));
  setTimeout(() => (socket.destroy(), resolve("timeout")), 2000);
});`;

const fixture: Record<string, string> = {
  "bot/instructions.md": "Hostile agent.",
  "knowledge/faq.md": "Refunds take 5 days.",
  "bot/tools/connect.ts": tool(tryConnect),
  "bot/tools/fetch_url.ts": tool(
    "try { const r = await fetch(input.url); return { status: r.status, body: await r.text() }; } catch (e) { return { error: String(e.cause?.code ?? e.message) }; }",
  ),
  "bot/tools/kill.ts": tool("try { process.kill(input.pid, 0); return 'signalled'; } catch (e) { return e.code; }"),
  "bot/tools/read_file.ts": tool("try { return fs.readFileSync(input.path, 'utf8'); } catch (e) { return e.code; }"),
  "bot/tools/list_dir.ts": tool("try { return fs.readdirSync(input.path); } catch (e) { return e.code; }"),
  "bot/tools/whoami.ts": tool(
    "return { uid: process.getuid(), pid: process.pid, cwd: process.cwd(), processes: fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).length };",
  ),
  "bot/tools/knowledge.ts": tool("return fs.readFileSync('knowledge/faq.md', 'utf8');"),
  "bot/tools/spin.ts": tool("for (;;) {}", " timeoutMs: 3000,"),
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-hostile-"));
const projectDir = path.join(root, "version", "source");
const agentDir = path.join(root, "agent");
let loaded: LoadedAgent;
let listener: net.Server;
let listenerPort: number;
const reached: string[] = [];
let allowedServer: http.Server;
let allowedPort: number;

// allowed.test and blocked.test both map to a local server: only the policy tells them apart.
const refusals: string[] = [];
const pool = createSandboxPool({
  nodePermissions: false,
  onLog: ({ text }) => void (text.startsWith("egress to") && refusals.push(text)),
  egress: { kind: "domains", domains: ["allowed.test", "blocked.test"] },
  declaredEgress: async () => ["allowed.test"],
  resolveEgress: async (host) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
});
const sandbox = () => pool.forVersion({ versionId: "v1", bundlePath: loaded.bundlePath!, projectDir, agentDir });

const context = (session: string): ToolCallContext => ({
  toolCallId: "call_1",
  session: { id: session, channel: "http", mode: "chat", auth: null, purpose: "live", dryRun: false },
  workspaceDir: path.join(agentDir, "workspaces", `ws-${session}`),
  stateRoot: path.join(agentDir, "state"),
});

async function call(name: string, input: unknown = {}, session = "a") {
  const result = await sandbox().call("runTool", { file: `bot/tools/${name}.ts`, input, context: context(session) });
  if (!result.ok) throw new Error(result.error);
  return result.output;
}

beforeAll(async () => {
  writeFiles(projectDir, fixture);
  loaded = await loadAgentFolder({ folderDir: projectDir, outDir: path.join(root, "version", "bundle") });
  listener = net.createServer((socket) => (reached.push(String(socket.remoteAddress)), socket.destroy()));
  await new Promise<void>((resolve) => listener.listen(0, "0.0.0.0", resolve));
  listenerPort = (listener.address() as net.AddressInfo).port;
  allowedServer = http.createServer((request, response) => response.end(`hello from ${request.headers.host}`));
  await new Promise<void>((resolve) => allowedServer.listen(0, "127.0.0.1", resolve));
  allowedPort = (allowedServer.address() as net.AddressInfo).port;
  for (const session of ["a", "b"]) ensureWorkspaceDir(context(session).workspaceDir);
  fs.writeFileSync(path.join(context("a").workspaceDir, "private.txt"), "a's notes");
  fs.mkdirSync(path.join(root, "data"), { recursive: true });
  fs.writeFileSync(path.join(root, "data", "auth-secret"), "do-not-read");
}, 60_000);

afterAll(async () => {
  await pool.stopAll();
  listener.close();
  allowedServer.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("a hostile tool in the sandbox", () => {
  it("runs as an unprivileged user, alone in its own PID namespace, in its project folder", async () => {
    const me = (await call("whoami")) as { uid: number; pid: number; cwd: string; processes: number };
    if (process.getuid?.() === 0) expect(me.uid).toBe(65534);
    // bwrap's init (pid 1) and the sandbox itself.
    expect(me.pid).toBe(2);
    expect(me.processes).toBe(2);
    expect(me.cwd).toBe(projectDir);
    expect(await call("knowledge")).toBe("Refunds take 5 days.");
  });

  const addresses: [string, string][] = [
    ["the platform's port on loopback", "127.0.0.1"],
    ["another loopback address", "127.1.2.3"],
    ["IPv6 loopback", "::1"],
    ["10/8", "10.0.0.1"],
    ["172.16/12", "172.16.0.1"],
    ["192.168/16", "192.168.0.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
  ];
  for (const [name, host] of addresses) {
    it(`cannot connect to ${name}`, async () => {
      const outcome = await call("connect", { host, port: listenerPort });
      expect(outcome).not.toBe("connected");
      expect(reached).toEqual([]);
    });
  }

  it("cannot reach this machine's own addresses either", async () => {
    const own = Object.values(os.networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((item) => item.family === "IPv4");
    for (const { address } of own)
      expect(await call("connect", { host: address, port: listenerPort })).not.toBe("connected");
    expect(reached).toEqual([]);
  });

  it("reaches a listed host through the egress proxy, and nothing else", async () => {
    expect(await call("fetch_url", { url: `http://allowed.test:${allowedPort}/` })).toEqual({
      status: 200,
      body: `hello from allowed.test:${allowedPort}`,
    });
    // Allowed by the instance, not declared by the agent.
    expect(await call("fetch_url", { url: `http://blocked.test:${allowedPort}/` })).toHaveProperty("error");
    // A raw address is not a listed name, and loopback is never egress.
    expect(await call("fetch_url", { url: `http://127.0.0.1:${listenerPort}/` })).toHaveProperty("error");
    expect(reached).toEqual([]);
    expect(refusals).toEqual([
      `egress to blocked.test:${allowedPort} refused: blocked.test is not in this agent's egress allowlist (hosting.egressDomains)`,
      `egress to 127.0.0.1:${listenerPort} refused: 127.0.0.1 is not in this agent's egress allowlist (hosting.egressDomains)`,
    ]);
  });

  it("cannot signal a process outside the sandbox, nor its own init", async () => {
    expect(await call("kill", { pid: process.pid })).toBe("ESRCH");
    if (process.getuid?.() === 0) expect(await call("kill", { pid: 1 })).toBe("EPERM");
  });

  it("cannot see another process's environment", async () => {
    expect(await call("read_file", { path: `/proc/${process.pid}/environ` })).toBe("ENOENT");
  });

  it("cannot list the workspaces, nor read another session's by its id", async () => {
    if (process.getuid?.() === 0)
      expect(await call("list_dir", { path: path.join(agentDir, "workspaces") }, "b")).toBe("EACCES");
    expect(await call("read_file", { path: path.join(agentDir, "workspaces", "a", "private.txt") }, "b")).toBe(
      "ENOENT",
    );
    expect(await call("read_file", { path: path.join(context("a").workspaceDir, "private.txt") }, "a")).toBe(
      "a's notes",
    );
  });

  it("cannot read the data directory or the platform's files", async () => {
    expect(await call("read_file", { path: path.join(root, "data", "auth-secret") })).toBe("ENOENT");
    expect(await call("read_file", { path: path.join(process.cwd(), "package.json") })).toBe("ENOENT");
    expect(await call("read_file", { path: "/etc/passwd" })).toBe("ENOENT");
  });
});

describe("one spinning call", () => {
  it("does not delay another session's call of the same version", async () => {
    // Two calls at once leave the version with two processes (a third call would start one).
    await Promise.all([call("knowledge", {}, "a"), call("knowledge", {}, "b")]);
    const spinning = sandbox()
      .call("runTool", { file: "bot/tools/spin.ts", input: {}, context: context("a") }, { timeoutMs: 3000 })
      .catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    expect(await call("knowledge", {}, "b")).toBe("Refunds take 5 days.");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await spinning).toMatchObject({ reason: "timeout" });
  }, 15_000);
});
