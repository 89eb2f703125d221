// A write tool call in a run of its turn after an earlier run was cut off mid-call: a write is
// not run again (the earlier claim says it may have happened), but an idempotent one — a
// reminder keyed on its call, an artifact updated in place — is, as a read would be.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import type { TurnSetup } from "./engine";
import { turnJournal } from "./step-journal";
import { runToolCall, type ToolCallEnv } from "./tool-call";
import type { ToolSpec } from "./turn-tools";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

// A liveness key no worker holds: the run that claimed with it is gone.
const goneWorker = () => 2 ** 31 - 7;

function counted(name: string, isIdempotent: boolean) {
  const runs: string[] = [];
  const spec: ToolSpec = {
    kind: "builtin",
    name,
    description: name,
    inputSchema: { type: "object" },
    effect: "write",
    isIdempotent,
    execute: async (_input, call) => (runs.push(call.callId), { done: call.callId }),
  };
  return { spec, runs };
}

async function secondRun(spec: ToolSpec, cutOff: (env: ToolCallEnv) => Promise<void>) {
  const session = await createTestSession(db);
  const turn = { sessionId: session.id, turnId: `turn_${crypto.randomUUID().slice(0, 8)}` };
  const env = (earlier: ToolCallEnv["earlier"]): ToolCallEnv => ({
    db,
    earlier,
    setup: { session: { id: session.id, agentId: session.agentId, dryRun: false } } as unknown as TurnSetup,
    turnId: turn.turnId,
    keyPrefix: turn.turnId,
    tools: [spec],
    sandbox: () => {
      throw new Error("a built-in needs no sandbox");
    },
    signal: new AbortController().signal,
  });
  await cutOff(env(turnJournal(db, turn, [turn.turnId], { workerKey: goneWorker }).earlier));
  return runToolCall(env(turnJournal(db, turn).earlier), { callId: "c1", toolName: spec.name, input: {} });
}

describe("a write cut off by its worker's death", () => {
  it("is not run again: the call fails as interrupted, for the model to judge", async () => {
    const { spec, runs } = counted("send_invoice", false);
    const result = await secondRun(spec, async (env) => {
      // The earlier run claimed the call, then its worker died before any result.
      await env.earlier.claimWrite(
        { claim: `${env.keyPrefix}:c1:claim`, result: `${env.keyPrefix}:c1:result` },
        5_000,
        env.signal,
      );
    });
    expect(runs).toEqual([]);
    expect(result).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^interrupted: send_invoice was started/),
    });
  });

  it("runs again when it is idempotent, and answers its result", async () => {
    const { spec, runs } = counted("remind", true);
    const result = await secondRun(spec, async (env) => {
      // The earlier run was inside the call when its worker died: no claim, no result.
      if (spec.kind === "builtin") await spec.execute({}, { callId: "c1", signal: env.signal });
    });
    expect(runs).toEqual(["c1", "c1"]);
    expect(result).toEqual({ output: { done: "c1" }, isError: false });
  });
});
