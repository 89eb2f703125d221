// Direct tool calls through the real worker and sandbox: results, validation, errors, the
// session lock (a write during a turn is 409 session_busy, a read runs alongside), approvals
// and dry-run.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Caller } from "@/server/auth/principal";
import type { AgentRef } from "@/server/sessions/start-session";
import { approvalAgent, engineAgent } from "@/testing/engine-agents";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import { callTool } from "./call-tool";

let h: Harness;
let agent: AgentRef;
let approvals: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("direct", engineAgent);
  approvals = await h.deploy("direct-approvals", approvalAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const owner = (): Caller => ({ principal: h.owner, can: () => false });
const approver: Caller = {
  principal: { kind: "app", id: "token:approver" },
  can: (action) => action === "approvals:write",
};
const call = (
  target: AgentRef,
  toolName: string,
  input: unknown,
  options: { caller?: Caller; sessionId?: string } = {},
) =>
  callTool({
    db: h.db,
    runtime: h.runtime,
    agent: target,
    caller: options.caller ?? owner(),
    toolName,
    body: { input: input as never },
    sessionId: options.sessionId,
  });

describe("direct tool calls", () => {
  it("answers with the tool's output, or its error as isError", async () => {
    expect(await call(agent, "lookup", { orderId: "D1" })).toEqual({
      ok: true,
      output: { orderId: "D1", status: "shipped" },
      isError: false,
    });
    expect(await call(agent, "declined", {})).toMatchObject({
      ok: true,
      isError: true,
      output: expect.stringContaining("card declined"),
    });
  });

  it("refuses input that fails the schema (400) and unknown tools (404)", async () => {
    await expect(call(agent, "lookup", { orderId: 7 })).rejects.toMatchObject({
      code: "invalid_input",
      status: 400,
      message: expect.stringContaining("orderId"),
    });
    await expect(call(agent, "nope", {})).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("a write during a running turn is 409 session_busy; a read runs alongside", async () => {
    const started = await h.start(agent, { message: "slowly [delay 3s]" });
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "step.started"));
    await expect(call(agent, "record", {}, { sessionId: started.sessionId })).rejects.toMatchObject({
      code: "session_busy",
      status: 409,
    });
    expect(await call(agent, "lookup", { orderId: "D2" }, { sessionId: started.sessionId })).toMatchObject({
      isError: false,
      output: { orderId: "D2" },
    });
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "session.waiting"));
    expect(await call(agent, "record", {}, { sessionId: started.sessionId })).toEqual({
      ok: true,
      output: "recorded",
      isError: false,
    });
  });

  it("another principal's session is 403", async () => {
    const started = await h.start(agent, { message: "hi" });
    const stranger: Caller = { principal: { kind: "app", id: "token:stranger" }, can: () => true };
    await expect(
      call(agent, "lookup", { orderId: "D3" }, { caller: stranger, sessionId: started.sessionId }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("runs a needsApproval tool only for a caller who may approve it, approved by that caller", async () => {
    await expect(call(approvals, "refund", { amount: 1 })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("needs approval"),
    });
    expect(await call(approvals, "refund", { amount: 1 }, { caller: approver })).toMatchObject({
      isError: false,
      output: { refunded: 1, approvedBy: "token:approver" },
    });
    // Its function decides per input: small refunds need nobody.
    expect(await call(approvals, "big_refund", { amount: 5 })).toMatchObject({
      output: { refunded: 5, approvedBy: null },
    });
    await expect(call(approvals, "big_refund", { amount: 500 })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("stubs a write in a dry-run session", async () => {
    const started = await h.start(agent, { message: "hi", dryRun: true });
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "session.waiting"));
    expect(await call(agent, "record", {}, { sessionId: started.sessionId })).toMatchObject({
      ok: true,
      stubbed: true,
    });
  });
});
