// A session end to end below HTTP: start, the durable turn on a real Restate and worker with the
// offline model, the event log it leaves, follow-ups with rotating tokens, and stop.
import "@/server/durable/polyfill";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getFreePort } from "@/cli/start/ports";
import { startEmbeddedRestate, type EmbeddedRestate } from "@/cli/start/restate";
import { waitFor } from "@/cli/start/wait";
import type { Principal } from "@/server/auth/principal";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import type { DurableRuntime } from "@/server/durable/runtime";
import { startWorkerServer, type WorkerServer } from "@/server/worker/endpoint";
import { readEvents } from "@/server/events/read-events";
import { createTestAgent } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { followUpSession } from "./follow-up-session";
import { startSession, type AgentRef } from "./start-session";
import { stopSession } from "./stop-session";

// A database of its own: its worker hears every new session of its database (eager turns).
let db: PrismaClient;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-flow-"));
const owner: Principal = { kind: "app", id: "token:flow" };
let restate: EmbeddedRestate;
let worker: WorkerServer;
let runtime: DurableRuntime;
let agent: AgentRef;

beforeAll(async () => {
  // Its own Restate: a worker registered here cannot be replaced by another test file's.
  db = createDb(await freshDatabaseUrl(inject("databaseUrl")));
  restate = await startEmbeddedRestate({
    dataDir,
    ports: { ingress: await getFreePort(), admin: await getFreePort(), node: await getFreePort() },
    log: () => undefined,
  });
  runtime = createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl });
  worker = await startWorkerServer({
    port: 0,
    host: "127.0.0.1",
    identityKeys: [restate.identityKey],
    deps: { db, dataDir, models: {}, defaultModel: "local:scripted", runtime },
  });
  await runtime.registerWorker(worker.url);
  const created = await createTestAgent(db);
  await db.agentVersion.update({
    where: { id: created.version.id },
    data: { manifest: { instructionsText: "You are a test agent." } },
  });
  agent = {
    id: created.agent.id,
    slug: created.agent.slug,
    teamId: created.team.id,
    activeVersionId: created.version.id,
  };
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await restate?.stop();
  await db?.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function eventsUntil(sessionId: string, done: (types: string[]) => boolean) {
  let events = await readEvents({ db, sessionId, fromIndex: 0 });
  await waitFor(
    "the turn's events",
    async () => {
      events = await readEvents({ db, sessionId, fromIndex: 0 });
      return done(events.map((e) => e.type));
    },
    { timeoutMs: 20_000 },
  );
  return events;
}

const waitingCount = (types: string[]) => types.filter((t) => t === "session.waiting").length;

describe("a chat session on the offline model", () => {
  let sessionId: string;
  let token: string;

  it("runs the first turn durably and records every event in order", async () => {
    const started = await startSession({
      db,
      runtime,
      agent,
      principal: owner,
      body: { message: "Hello there" },
      baseUrl: "http://x",
    });
    expect(started).toMatchObject({
      ok: true,
      sessionId: expect.stringMatching(/^ses_/),
      continuationToken: expect.stringMatching(/^http:/),
    });
    expect(started.traceUrl).toBe(`http://x/${agent.slug}/v1/session/${started.sessionId}/events`);
    ({ sessionId, continuationToken: token } = started);
    const events = await eventsUntil(sessionId, (types) => waitingCount(types) === 1);
    const types = [...new Set(events.map((e) => e.type))];
    expect(types).toEqual([
      "session.started",
      "message.received",
      "turn.started",
      "step.started",
      "reasoning.appended",
      "reasoning.completed",
      "message.appended",
      "step.completed",
      "message.completed",
      "turn.completed",
      "session.waiting",
    ]);
    expect(events.map((e) => e.index)).toEqual(events.map((_, i) => i));
    const completed = events.find((e) => e.type === "message.completed");
    expect(completed?.data).toMatchObject({ text: expect.stringContaining("Hello there") });
    // The deltas (joined where they waited for the same append) make up the reply.
    const deltas = events.flatMap((e) => (e.type === "message.appended" ? [(e.data as { delta: string }).delta] : []));
    expect(deltas.join("")).toBe((completed!.data as { text: string }).text);
    expect(events.find((e) => e.type === "turn.completed")?.data).toMatchObject({
      usage: { outputTokens: expect.any(Number) },
    });
  });

  it("takes a follow-up with the latest token, rotating it, and refuses a stale one", async () => {
    const next = await followUpSession({
      db,
      runtime,
      agentId: agent.id,
      sessionId,
      principal: owner,
      body: { continuationToken: token, message: "And again" },
    });
    expect(next.continuationToken).not.toBe(token);
    await expect(
      followUpSession({
        db,
        runtime,
        agentId: agent.id,
        sessionId,
        principal: owner,
        body: { continuationToken: token, message: "stale" },
      }),
    ).rejects.toMatchObject({ code: "stale_continuation_token", status: 409 });
    const events = await eventsUntil(sessionId, (types) => waitingCount(types) === 2);
    expect(events.filter((e) => e.type === "message.received").map((e) => e.data)).toEqual([
      { text: "Hello there", deliveryIds: [expect.stringMatching(/^dlv_/)] },
      { text: "And again", deliveryIds: [next.deliveryId] },
    ]);
    token = next.continuationToken;
  });

  it("refuses another principal with 403", async () => {
    const stranger: Principal = { kind: "app", id: "token:stranger" };
    await expect(
      followUpSession({
        db,
        runtime,
        agentId: agent.id,
        sessionId,
        principal: stranger,
        body: { continuationToken: token, message: "hi" },
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("records a model failure as turn.failed and keeps the session usable", async () => {
    const next = await followUpSession({
      db,
      runtime,
      agentId: agent.id,
      sessionId,
      principal: owner,
      body: { continuationToken: token, message: "please [fail: model exploded]" },
    });
    const events = await eventsUntil(sessionId, (types) => waitingCount(types) === 3);
    expect(events.filter((e) => e.type === "turn.failed").map((e) => e.data)).toEqual([
      { message: expect.stringContaining("model exploded"), status: "error", code: "model_error" },
    ]);
    token = next.continuationToken;
  });

  it("stops a running turn: the turn ends as cancelled", async () => {
    await followUpSession({
      db,
      runtime,
      agentId: agent.id,
      sessionId,
      principal: owner,
      body: { continuationToken: token, message: "slowly [delay 3s]" },
    });
    await waitFor(
      "the turn to start",
      async () => (await db.session.findUniqueOrThrow({ where: { id: sessionId } })).runningInvocationId !== null,
    );
    expect(await stopSession({ db, runtime, agentId: agent.id, sessionId, principal: owner })).toMatchObject({
      ok: true,
      wasRunning: true,
    });
    const events = await eventsUntil(sessionId, (types) => waitingCount(types) === 4);
    expect(events.filter((e) => e.type === "turn.failed").at(-1)?.data).toEqual({
      message: "turn interrupted",
      status: "cancelled",
      code: "cancelled",
    });
  });

  it("refuses follow-ups to task sessions", async () => {
    const task = await startSession({
      db,
      runtime,
      agent,
      principal: owner,
      body: { message: "one-off" },
      baseUrl: "http://x",
      mode: "task",
    });
    await expect(
      followUpSession({
        db,
        runtime,
        agentId: agent.id,
        sessionId: task.sessionId,
        principal: owner,
        body: { continuationToken: task.continuationToken, message: "more" },
      }),
    ).rejects.toMatchObject({ code: "task_session", status: 409 });
  });
});
