// A local process calling the worker's handlers directly, in Restate's service protocol but
// without Restate's signature, is refused; the same stack's calls through Restate are served.
import "./polyfill";
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getFreePort } from "@/cli/start/ports";
import { startEmbeddedRestate, type EmbeddedRestate } from "@/cli/start/restate";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "./restate-runtime";
import { isWorkerHealthy } from "@/server/worker/health";
import { startWorkerServer, type WorkerConfig, type WorkerServer } from "@/server/worker/endpoint";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-identity-"));
const db = createDb(inject("databaseUrl"));
const deps: WorkerConfig = { db, dataDir, models: {}, defaultModel: "local:scripted" };
let restate: EmbeddedRestate;
let worker: WorkerServer;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // Its own Restate: a worker registered here cannot be replaced by another test file's.
  restate = await startEmbeddedRestate({
    dataDir,
    ports: { ingress: await getFreePort(), admin: await getFreePort(), node: await getFreePort() },
    log: () => undefined,
  });
  closers.push(restate.stop);
  worker = await startWorkerServer({ port: 0, host: "127.0.0.1", identityKeys: [restate.identityKey], deps });
  closers.unshift(worker.close);
  await createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl }).registerWorker(worker.url);
}, 120_000);

afterAll(async () => {
  for (const close of closers) await close();
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Protobuf, just enough for a StartMessage and an InputCommandMessage.
const varint = (n: number): Buffer => {
  const bytes: number[] = [];
  for (; n > 0x7f; n >>>= 7) bytes.push((n & 0x7f) | 0x80);
  return Buffer.from([...bytes, n]);
};
const bytesField = (field: number, value: Buffer | string) => {
  const data = Buffer.from(value);
  return Buffer.concat([varint((field << 3) | 2), varint(data.length), data]);
};
const frame = (type: number, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(type, 0);
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
};

/** An invocation as Restate starts one: the start message (id, 1 known entry), then the input. */
function invocationBody(input: unknown): Buffer {
  const start = Buffer.concat([
    bytesField(1, crypto.randomBytes(24)),
    bytesField(2, "inv_forged"),
    varint(3 << 3),
    varint(1),
  ]);
  const value = bytesField(1, JSON.stringify(input));
  return Buffer.concat([frame(0x0000, start), frame(0x0400, bytesField(14, value))]);
}

/** A JWT for `aud` signed with a key of the caller's own, claiming to be Restate's key. */
function forgedJwt(aud: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ typ: "JWT", alg: "EdDSA", kid: restate.identityKey })}.${part({ aud, iat: now, nbf: now - 60, exp: now + 60 })}`;
  const key = crypto.generateKeyPairSync("ed25519").privateKey;
  return `${unsigned}.${crypto.sign(null, Buffer.from(unsigned), key).toString("base64url")}`;
}

/** POSTs an invocation straight to a worker, as any local process could. */
async function callDirectly(
  workerUrl: string,
  handlerPath: string,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const session = http2.connect(workerUrl);
  try {
    return await new Promise((resolve, reject) => {
      const request = session.request({
        ":method": "POST",
        ":path": handlerPath,
        "content-type": "application/vnd.restate.invocation.v6",
        accept: "application/vnd.restate.invocation.v6",
        "x-restate-invocation-id": "inv_forged",
        ...headers,
      });
      let status = 0;
      const chunks: Buffer[] = [];
      request.on("response", (head) => (status = Number(head[":status"])));
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => resolve({ status, body: Buffer.concat(chunks).toString("latin1") }));
      request.on("error", reject);
      request.end(invocationBody(input));
    });
  } finally {
    session.destroy();
  }
}

const forgedToolCall = { agentId: "agent", versionId: "version", tool: "anything", input: { path: "/etc/passwd" } };

describe("a worker that verifies Restate's signature", () => {
  it("serves what Restate sends it, signed", async () => {
    const response = await fetch(`${restate.ingressUrl}/health/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true });
    // Health checks carry no signature, and need none.
    expect(await isWorkerHealthy(worker.url)).toBe(true);
  });

  it("refuses a direct call of a handler without Restate's signature", async () => {
    for (const handlerPath of ["/invoke/tools/call", "/invoke/health/check"]) {
      expect(await callDirectly(worker.url, handlerPath, forgedToolCall)).toEqual({
        status: 401,
        body: expect.stringContaining("Unauthorized"),
      });
      const unsigned = await callDirectly(worker.url, handlerPath, forgedToolCall, {
        "x-restate-signature-scheme": "unsigned",
      });
      expect(unsigned.status).toBe(401);
    }
  });

  it("refuses a direct call signed with any other key", async () => {
    const forged = await callDirectly(worker.url, "/invoke/tools/call", forgedToolCall, {
      "x-restate-signature-scheme": "v1",
      "x-restate-jwt-v1": forgedJwt("/invoke/tools/call"),
    });
    expect(forged.status).toBe(401);
  });

  it("is what stops the call: a worker accepting unsigned requests runs it", async () => {
    const open = await startWorkerServer({ port: 0, host: "127.0.0.1", identityKeys: null, deps });
    closers.unshift(open.close);
    const answered = await callDirectly(open.url, "/invoke/health/check", null);
    expect(answered.status).toBe(200);
    // The handler ran: its "now" step's result is in the answer.
    expect(answered.body).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
  });

  it("is never an empty key list, which the SDK would read as 'verify nothing'", async () => {
    await expect(startWorkerServer({ port: 0, host: "127.0.0.1", identityKeys: [], deps })).rejects.toThrow(
      /at least one Restate identity key/,
    );
  });
});

describe("the worker process", () => {
  function runWorker(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/worker/main.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: inject("databaseUrl"),
        AGENTFOLD_DATA_DIR: dataDir,
        RESTATE_INGRESS_URL: restate.ingressUrl,
        RESTATE_ADMIN_URL: restate.adminUrl,
        RESTATE_IDENTITY_KEYS: "",
        AGENTFOLD_UNSIGNED_RESTATE: "",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("worker listening on")) child.kill("SIGTERM");
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    // Only if it hangs: tsx takes seconds to start on a busy machine.
    const timer = setTimeout(() => child.kill("SIGKILL"), 80_000);
    return new Promise((resolve) => child.once("exit", (code) => (clearTimeout(timer), resolve({ code, output }))));
  }

  it("refuses to start for an external Restate without keys, naming the variable", { timeout: 90_000 }, async () => {
    const { code, output } = await runWorker({ WORKER_PORT: String(await getFreePort()) });
    expect(code).not.toBe(0);
    expect(output).toContain("RESTATE_IDENTITY_KEYS: an external Restate needs the public key(s)");
  });

  it("starts without keys only when told to, and says so", { timeout: 90_000 }, async () => {
    const { output } = await runWorker({ WORKER_PORT: String(await getFreePort()), AGENTFOLD_UNSIGNED_RESTATE: "1" });
    expect(output).toContain("WARNING: AGENTFOLD_UNSIGNED_RESTATE=1: the worker accepts requests Restate did not sign");
    expect(output).toContain("worker listening on");
  });
});
