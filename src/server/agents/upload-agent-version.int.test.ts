// Concurrent uploads through the service the upload route calls: two run, six wait without their
// bodies being read, a ninth is refused at once (503), and every accepted one completes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadAgentFolder } from "@/agents/loader/load-agent";
import type { Caller } from "@/server/auth/principal";
import { createDb } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { zipFiles } from "@/testing/archives";
import { uploadAgentVersion } from "./upload-agent-version";
import { createUploadSlots } from "./upload-slots";

const db = createDb(inject("databaseUrl"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-upload-slots-"));
let teamId = "";
let archive: Buffer;

beforeAll(async () => {
  teamId = (await db.team.create({ data: { slug: `uploads-${Date.now().toString(36)}`, name: "Uploads" } })).id;
  archive = await zipFiles({ "package.json": '{"name":"u"}', "bot/instructions.md": "Help." }, { wrap: "u" });
});
afterAll(async () => {
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("uploadAgentVersion under concurrent uploads", () => {
  it("reads two bodies at a time, queues six more, and refuses the ninth without reading it", async () => {
    const caller: Caller = { principal: { kind: "app", id: "token:uploads" }, teamId, can: () => true };
    // Activation never happens (activate: false), so the runtime is never called.
    const runtime = {} as DurableRuntime;
    const slots = createUploadSlots();
    const reads: number[] = [];
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const upload = (i: number) =>
      uploadAgentVersion({
        db,
        runtime,
        dataDir,
        caller,
        slug: `up-${i}-${teamId.slice(-6)}`,
        activate: false,
        slots,
        load: loadAgentFolder,
        readArchive: async () => (reads.push(i), await gate, archive),
      });
    const uploads = Array.from({ length: 8 }, (_, i) => upload(i));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads).toEqual([0, 1]);
    await expect(upload(8)).rejects.toMatchObject({ code: "unavailable", status: 503 });
    expect(reads).not.toContain(8);
    openGate();
    const versions = await Promise.all(uploads);
    expect(versions.map((v) => v.status)).toEqual(Array(8).fill("ready"));
    expect(reads.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  }, 60_000);
});
