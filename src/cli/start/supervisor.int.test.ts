// The supervisor as a user runs it: a real `agentfold start` child process, real Postgres,
// Restate, worker and web, checked over HTTP and by the processes it leaves (or not).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  freeStackPorts,
  isProcessAlive,
  makeDataDir,
  printedPid,
  spawnSupervisor,
  type SupervisorProcess,
} from "@/testing/supervisor-process";
import { embeddedDatabaseUrl } from "./postgres";
import { sleep } from "./wait";

// Whole stacks, and the first one may build the web app.
const stackTimeout = 240_000;
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
    const [, baseUrl] = await supervisor.waitForOutput(readyLine);
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
    await supervisor.waitForOutput(/worker killed by SIGKILL; restarting/, 5_000);
    const downtime = await waitForHealthy(baseUrl!, 10_000);
    expect(downtime).toBeLessThan(10_000);
    const [, newPid] = await supervisor.waitForOutput(/worker restarted \(pid (\d+)\)/, 1_000);
    expect(Number(newPid)).not.toBe(workerPid);

    const webPid = printedPid(output, "web");
    expect(await supervisor.stop("SIGTERM")).toBe(0);
    for (const pid of [webPid, Number(newPid)]) expect(isProcessAlive(pid)).toBe(false);
  });
});

describe("agentfold start on embedded defaults", () => {
  it("runs everything itself, stops it all on SIGINT, and keeps the data for the next start", { timeout: stackTimeout }, async () => {
    const dir = dataDir();
    const ports = await freeStackPorts();
    const env = { ...ports, AGENTFOLD_DATA_DIR: dir };

    const first = start(env);
    const [, baseUrl] = await first.waitForOutput(readyLine);
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
    await second.waitForOutput(readyLine);
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
    const supervisor = start({ AGENTFOLD_DATA_DIR: dir, RESTATE_INGRESS_URL: inject("restateIngressUrl"), RESTATE_ADMIN_URL: inject("restateAdminUrl") });
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
