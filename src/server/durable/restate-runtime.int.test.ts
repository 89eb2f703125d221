import "./polyfill";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "./restate-runtime";
import { isWorkerHealthy } from "@/server/worker/health";
import { startWorkerServer, type WorkerServer } from "@/server/worker/endpoint";

let server: WorkerServer;
let workerUrl: string;

beforeAll(async () => {
  server = await startWorkerServer({
    port: 0,
    host: "127.0.0.1",
    identityKeys: [inject("restateIdentityKey")],
    deps: { db: createDb(inject("databaseUrl")), dataDir: os.tmpdir(), models: {}, defaultModel: "local:scripted" },
  });
  workerUrl = server.url;
});

afterAll(() => server.close());

describe("the Restate runtime", () => {
  const runtime = () =>
    createRestateRuntime({ ingressUrl: inject("restateIngressUrl"), adminUrl: inject("restateAdminUrl") });

  it("reports Restate healthy, and unhealthy when nothing answers", async () => {
    expect(await runtime().isHealthy()).toBe(true);
    const nowhere = createRestateRuntime({ ingressUrl: "http://127.0.0.1:9", adminUrl: "http://127.0.0.1:9" });
    expect(await nowhere.isHealthy()).toBe(false);
  });

  it("registers a worker idempotently and routes invocations to it", async () => {
    expect(await isWorkerHealthy(workerUrl)).toBe(true);
    await runtime().registerWorker(workerUrl);
    await runtime().registerWorker(workerUrl);
    const response = await fetch(`${inject("restateIngressUrl")}/health/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true });
  });

  it("says why a registration failed", async () => {
    await expect(runtime().registerWorker("http://127.0.0.1:9")).rejects.toThrow(
      /Restate refused to register the worker at http:\/\/127.0.0.1:9: \d{3}/,
    );
  });
});
