// The supervisor as a user runs it: a real `agentfold start` child process, real Postgres,
// Restate, worker and web, checked over HTTP and by the processes it leaves (or not).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { writeFiles } from "@/testing/folders";
import {
  currentPid,
  freeStackPorts,
  isProcessAlive,
  makeDataDir,
  printedPid,
  spawnSupervisor,
  stackCli,
  type SupervisorProcess,
} from "@/testing/supervisor-process";
import { embeddedDatabaseUrl } from "./postgres";
import { sleep, waitFor } from "./wait";

// Whole stacks, and the first one may build the web app (over 3 min on two busy cores).
const readyTimeout = 300_000;
const stackTimeout = readyTimeout + 60_000;
const readyLine = /Agentfold is ready: open (http:\/\/\S+)/;
const running: SupervisorProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  // A failed assertion must not leave a stack running.
  await Promise.all(running.map((supervisor) => supervisor.stop("SIGTERM")));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = makeDataDir();
  dataDirs.push(dir);
  return dir;
}

function start(env: Record<string, string>): SupervisorProcess {
  const supervisor = spawnSupervisor(env);
  running.push(supervisor);
  return supervisor;
}

async function health(baseUrl: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}/v1/health`);
  return { status: response.status, body: await response.json() };
}

async function waitForHealthy(baseUrl: string, timeoutMs: number): Promise<number> {
  const startedAt = Date.now();
  while (Date.now() - startedAt < timeoutMs) {
    const { status } = await health(baseUrl).catch(() => ({ status: 0 }));
    if (status === 200) return Date.now() - startedAt;
    await sleep(100);
  }
  throw new Error(`not healthy within ${timeoutMs} ms`);
}

describe("agentfold start with external Postgres and Restate", () => {
  it("starts no embedded parts, restarts a killed worker, and stops cleanly", { timeout: stackTimeout }, async () => {
    const dir = dataDir();
    const ports = await freeStackPorts();
    const supervisor = start({
      ...ports,
      AGENTFOLD_DATA_DIR: dir,
      DATABASE_URL: inject("databaseUrl"),
      RESTATE_INGRESS_URL: inject("restateIngressUrl"),
      RESTATE_ADMIN_URL: inject("restateAdminUrl"),
      RESTATE_IDENTITY_KEYS: inject("restateIdentityKey"),
    });
    const [, baseUrl] = await supervisor.waitForOutput(readyLine, readyTimeout);
    const output = supervisor.output();
    expect(output).toMatch(/postgres\s+external/);
    expect(output).toMatch(/restate\s+external/);
    // Credentials never reach the terminal.
    expect(output).not.toContain(new URL(inject("databaseUrl")).password);
    expect(fs.existsSync(path.join(dir, "postgres"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "restate"))).toBe(false);

    const first = await health(baseUrl!);
    expect(first.status).toBe(200);
    expect(first.body.components).toMatchObject({ db: { ok: true }, restate: { ok: true }, worker: { ok: true } });

    const workerPid = printedPid(output, "worker");
    process.kill(workerPid, "SIGKILL");
    await supervisor.waitForOutput(
      new RegExp(
        `worker \\(pid ${workerPid}\\) killed by SIGKILL after [\\d.]+ (ms|s|min); restart 1 of 5 within 60 s, in 250 ms`,
      ),
      5_000,
    );
    const downtime = await waitForHealthy(baseUrl!, 10_000);
    expect(downtime).toBeLessThan(10_000);
    const [, newPid] = await supervisor.waitForOutput(/worker restarted \(pid (\d+)\), ready after/, 1_000);
    expect(Number(newPid)).not.toBe(workerPid);

    const webPid = printedPid(output, "web");
    expect(await supervisor.stop("SIGTERM")).toBe(0);
    for (const pid of [webPid, Number(newPid)]) expect(isProcessAlive(pid)).toBe(false);
  });
});

describe("agentfold start on embedded defaults", () => {
  it("runs everything itself, stops it all on SIGINT, and keeps the data for the next start", {
    timeout: stackTimeout,
  }, async () => {
    const dir = dataDir();
    const ports = await freeStackPorts();
    const env = { ...ports, AGENTFOLD_DATA_DIR: dir };

    const first = start(env);
    const [, baseUrl] = await first.waitForOutput(readyLine, readyTimeout);
    expect(first.output()).toMatch(/postgres\s+embedded/);
    expect(first.output()).toMatch(/restate\s+embedded/);
    expect((await health(baseUrl!)).status).toBe(200);
    const pids = (["postgres", "restate", "worker", "web"] as const).map((c) => printedPid(first.output(), c));

    // Write through the embedded database so the second start can prove nothing was lost.
    const url = embeddedDatabaseUrl(dir, Number(ports.POSTGRES_PORT))!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`insert into "Team" (id, slug, name, "updatedAt") values ('t1', 'kept', 'Kept', now())`);
    await client.end();

    expect(await first.stop("SIGINT")).toBe(0);
    const stopOrder = [...first.output().matchAll(/stopping (\w+)/g)].map((m) => m[1]);
    expect(stopOrder).toEqual(["web", "worker", "restate", "postgres"]);
    for (const pid of pids) expect(isProcessAlive(pid), `pid ${pid} still running`).toBe(false);

    const second = start(env);
    await second.waitForOutput(readyLine, readyTimeout);
    expect(second.output()).not.toContain("initialising a new cluster");
    const again = new pg.Client({ connectionString: url });
    await again.connect();
    const { rows } = await again.query(`select name from "Team" where slug = 'kept'`);
    await again.end();
    expect(rows).toEqual([{ name: "Kept" }]);
    expect(await second.stop("SIGTERM")).toBe(0);
  });
});

describe("agentfold start refuses bad configuration", () => {
  it("names the port and the variable when a port is taken", async () => {
    const ports = await freeStackPorts();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(ports.PORT), "127.0.0.1", resolve));
    try {
      const supervisor = start({ ...ports, AGENTFOLD_DATA_DIR: dataDir() });
      expect(await supervisor.exited).toBe(1);
      expect(supervisor.output()).toContain(`Port ${ports.PORT} (web) is already in use`);
      expect(supervisor.output()).toContain("set PORT to another port");
    } finally {
      blocker.close();
    }
  });

  it("names the variable when an external Restate comes without the keys it signs with", async () => {
    const dir = dataDir();
    const supervisor = start({
      AGENTFOLD_DATA_DIR: dir,
      RESTATE_INGRESS_URL: inject("restateIngressUrl"),
      RESTATE_ADMIN_URL: inject("restateAdminUrl"),
    });
    expect(await supervisor.exited).toBe(1);
    expect(supervisor.output()).toContain("RESTATE_IDENTITY_KEYS: an external Restate needs the public key(s)");
    // Refused before anything started.
    expect(fs.existsSync(path.join(dir, "postgres"))).toBe(false);
  });

  it("names the variable when a value is invalid", async () => {
    const supervisor = start({ PORT: "eighty", AGENTFOLD_DATA_DIR: dataDir() });
    expect(await supervisor.exited).toBe(1);
    expect(supervisor.output()).toMatch(/PORT: .*number/i);
  });
});

// An agent with one read tool: `[call lookup …] [delay 3s]` makes a turn of two model steps, each
// waiting 3 s (docs/models.md), so a part can be killed mid-turn once the tool's result is logged.
const lookupAgent = {
  "package.json": '{"name":"kill-tests"}',
  "bot/instructions.md": "You look up orders.",
  "bot/tools/lookup.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Looks up an order", effect: "read",
  inputSchema: z.object({ orderId: z.string() }), async execute({ orderId }) { return { orderId, status: "shipped" }; } });
`,
};
const slowTurn = (orderId: string) => `Where is ${orderId}? [call lookup {"orderId":"${orderId}"}] [delay 3s]`;
// Bounds: a turn takes ~6 s; a restarted Postgres or Restate is back within seconds.
const turnBoundMs = 60_000;
const restartLimit = 4;

type Stack = { supervisor: SupervisorProcess; baseUrl: string; dir: string; token: string };

async function request(
  stack: Stack,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

async function sessionLog(stack: Stack, sessionId: string): Promise<SessionEvent[]> {
  const { status, text } = await request(stack, "GET", `/kill/v1/session/${sessionId}/events`);
  if (status !== 200) throw new Error(`events: ${status} ${text}`);
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => sessionEventSchema.parse(JSON.parse(line)));
}

/** Polls the log (the web may answer 5xx while a part is down) until `isDone`, within the bound. */
async function waitForLog(
  stack: Stack,
  sessionId: string,
  what: string,
  isDone: (log: SessionEvent[]) => boolean,
): Promise<SessionEvent[]> {
  let log: SessionEvent[] = [];
  await waitFor(what, async () => isDone((log = await sessionLog(stack, sessionId))), {
    timeoutMs: turnBoundMs,
    intervalMs: 50,
  });
  return log;
}

const turnEnded = (turnId: string) => (log: SessionEvent[]) =>
  log.some((e) => e.turnId === turnId && (e.type === "turn.completed" || e.type === "turn.failed")) &&
  log.at(-1)?.type === "session.waiting";
const toolAnswered = (turnId: string) => (log: SessionEvent[]) =>
  log.some((e) => e.turnId === turnId && e.type === "action.result");

const oncePerTurn = ["message.received", "turn.started", "turn.completed", "turn.failed", "session.waiting"];

/** Gapless (indexes 0..n-1), each turn completed once with the tool's answer, and nothing twice. */
function expectWholeLog(log: SessionEvent[], turnIds: string[]): void {
  expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
  const once = new Map<string, number>();
  const count = (key: string) => once.set(key, (once.get(key) ?? 0) + 1);
  for (const e of log) {
    if (oncePerTurn.includes(e.type)) count(`${e.type} ${e.turnId}`);
    if (e.type === "step.started") count(`${e.type} ${e.turnId} ${e.data.step} attempt ${e.data.attempt ?? 1}`);
    if (e.type === "step.completed") count(`${e.type} ${e.turnId} ${e.data.step}`);
    if (e.type === "action.result") count(`${e.type} ${e.data.callId}`);
    if (e.type === "actions.requested") for (const call of e.data.calls) count(`${e.type} ${call.callId}`);
  }
  expect([...once].filter(([, n]) => n > 1)).toEqual([]);
  for (const turnId of turnIds) {
    const ended = log.filter((e) => e.turnId === turnId && (e.type === "turn.completed" || e.type === "turn.failed"));
    expect(
      ended.map((e) => e.type),
      turnId,
    ).toEqual(["turn.completed"]);
    const replies = log.flatMap((e) => (e.turnId === turnId && e.type === "message.completed" ? [e.data.text] : []));
    expect(replies.at(-1), turnId).toContain("The lookup tool returned");
  }
}

async function waitForPartDown(stack: Stack, part: "database" | "engine"): Promise<void> {
  const isDown = async () => (await health(stack.baseUrl)).body.parts?.[part] === "down";
  await waitFor(`health to say ${part} is down`, isDown, { timeoutMs: 5_000, intervalMs: 20 });
}

/** Waits for /v1/health to name `part` as down, then for all to be up again. */
async function expectDownThenUp(stack: Stack, part: "database" | "engine"): Promise<void> {
  await waitForPartDown(stack, part);
  await waitFor(
    "health to be 200 again",
    async () => {
      const { status, body } = await health(stack.baseUrl);
      return (
        status === 200 && JSON.stringify(body.parts) === JSON.stringify({ database: "up", engine: "up", worker: "up" })
      );
    },
    { timeoutMs: 30_000 },
  );
}

const turnIdOf = (log: SessionEvent[], nth: number) => log.filter((e) => e.type === "message.received")[nth]!.turnId!;

// One stack for every kill: a stack's start-up (and maybe a web build) is most of the time.
describe("agentfold start keeps its parts running", () => {
  let stack: Stack;
  let sessionId: string;
  let continuationToken: string;
  const turnIds: string[] = [];

  beforeAll(async () => {
    const dir = dataDir();
    const ports = await freeStackPorts();
    const supervisor = start({ ...ports, AGENTFOLD_DATA_DIR: dir, AGENTFOLD_RESTART_LIMIT: String(restartLimit) });
    const [, baseUrl] = await supervisor.waitForOutput(readyLine, readyTimeout);
    const cli = stackCli(dir, ports);
    await cli("team", "create", "--team", "kill");
    await cli(
      "deploy",
      "--dir",
      writeFiles(path.join(dir, "kill-agent"), lookupAgent),
      "--team",
      "kill",
      "--slug",
      "kill",
    );
    stack = {
      supervisor,
      baseUrl: baseUrl!,
      dir,
      token: await cli("token", "create", "--team", "kill", "--actions", "*", "--name", "kill"),
    };
  }, stackTimeout);

  async function followUp(orderId: string): Promise<string> {
    const { status, text } = await request(stack, "POST", `/kill/v1/session/${sessionId}`, {
      continuationToken,
      message: slowTurn(orderId),
    });
    expect(status, text).toBe(200);
    continuationToken = JSON.parse(text).continuationToken;
    const log = await sessionLog(stack, sessionId);
    turnIds.push(turnIdOf(log, turnIds.length));
    return turnIds.at(-1)!;
  }

  it("restarts a killed Postgres mid-turn; the turn completes with a whole log", { timeout: 120_000 }, async () => {
    const { status, text } = await request(stack, "POST", "/kill/v1/session", { message: slowTurn("A1") });
    expect(status, text).toBe(200);
    ({ sessionId, continuationToken } = JSON.parse(text));
    turnIds.push(turnIdOf(await sessionLog(stack, sessionId), 0));

    // The session's first turn runs eagerly on the worker (docs/turns.md); a follow-up runs as a
    // Restate invocation. Kill Postgres in the second model step of each.
    await killPostgresDuring(turnIds[0]!);
    await killPostgresDuring(await followUp("A2"));
    expect(isProcessAlive(currentPid(stack.supervisor.output(), "postgres"))).toBe(true);
    expectWholeLog(await sessionLog(stack, sessionId), turnIds);
  });

  it("restarts a killed Restate mid-turn; the turn completes with a whole log", { timeout: 120_000 }, async () => {
    const turnId = await followUp("A3");
    await waitForLog(stack, sessionId, "the tool's result", toolAnswered(turnId));
    const pid = currentPid(stack.supervisor.output(), "restate");
    process.kill(pid, "SIGKILL");
    await stack.supervisor.waitForOutput(
      new RegExp(`restate \\(pid ${pid}\\) killed by SIGKILL after .*; restart 1 of ${restartLimit} within 60 s`),
      5_000,
    );
    await expectDownThenUp(stack, "engine");
    await waitForEnd(turnId);
    expectWholeLog(await sessionLog(stack, sessionId), turnIds);
    // Later turns run too: the worker's registration survived the restart.
    await waitForEnd(await followUp("A4"));
    expectWholeLog(await sessionLog(stack, sessionId), turnIds);
  });

  it("stops the stack, naming the part and its last output, when a part keeps dying", {
    timeout: 120_000,
  }, async () => {
    const pids = (["postgres", "restate", "worker", "web"] as const).map((part) =>
      currentPid(stack.supervisor.output(), part),
    );
    // A setting Postgres does not know: every restart fails at once, as a broken config would.
    fs.appendFileSync(path.join(stack.dir, "postgres", "postgresql.conf"), "\nshared_bufers = 1\n");
    process.kill(pids[0]!, "SIGKILL");
    await waitForPartDown(stack, "database");
    expect(await stack.supervisor.exited).toBe(1);
    const output = stack.supervisor.output();
    const gaveUp = `it died ${restartLimit + 1} times within 60 s, more than the ${restartLimit} restarts allowed`;
    expect(output).toMatch(
      new RegExp(
        `postgres \\(pid \\d+\\) exited with code 1 after [\\d.]+ (ms|s): ${gaveUp} \\(AGENTFOLD_RESTART_LIMIT\\); stopping Agentfold`,
      ),
    );
    expect(output).toContain(`last output of postgres (all of it in ${path.join(stack.dir, "logs", "postgres.log")}):`);
    expect(output).toMatch(/agentfold: {3}.*unrecognized configuration parameter "shared_bufers"/);
    expect([...output.matchAll(/^agentfold: stopping (\w+)$/gm)].map((m) => m[1])).toEqual([
      "web",
      "worker",
      "restate",
      "postgres",
    ]);
    for (const pid of pids) expect(isProcessAlive(pid), `pid ${pid} still running`).toBe(false);
  });

  async function killPostgresDuring(turnId: string): Promise<void> {
    await waitForLog(stack, sessionId, "the tool's result", toolAnswered(turnId));
    const pid = currentPid(stack.supervisor.output(), "postgres");
    process.kill(pid, "SIGKILL");
    await stack.supervisor.waitForOutput(
      new RegExp(`postgres \\(pid ${pid}\\) killed by SIGKILL after .*; restart \\d of ${restartLimit} within 60 s`),
      5_000,
    );
    await expectDownThenUp(stack, "database");
    await waitForEnd(turnId);
  }

  async function waitForEnd(turnId: string): Promise<void> {
    await waitForLog(stack, sessionId, `turn ${turnId} to end`, turnEnded(turnId));
  }
});
