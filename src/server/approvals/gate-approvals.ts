// The approval gate of a tool batch (docs/turns.md "Approvals"). Calls whose tool needs approval
// (a boolean, or the tool's own function of the input, asked in the sandbox) are parked: each gets
// an approval row, an `action.approval_requested` event and a Restate awakeable, all recorded
// before the turn waits. The turn then waits on each awakeable, holding no process; a decision,
// an expiry (a durable timer) or a cancellation (stop, preempt) ends each wait. A session with
// nobody to ask (a task or an eval) follows the agent's policy: deny at once (the default), or park.
import type { Principal } from "@/agents/sdk/types";
import { TimeoutError } from "@restatedev/restate-sdk";
import { pgTransaction, poolOf } from "@/server/db";
import { appendEvents, appendEventsInTransaction, type NewEvent } from "@/server/events/append-events";
import type { LoopEnv, ToolCallRequest, Verdict } from "@/server/turns/engine";
import type { ToolSpec } from "@/server/turns/turn-tools";
import { sessionInfo } from "@/server/turns/turn-setup";
import { storableJson } from "@/server/events/storable-json";

type Parked = { callId: string; toolName: string; args: unknown };

export async function gateApprovals(
  env: LoopEnv,
  keyPrefix: string,
  step: number,
  calls: ToolCallRequest[],
  tools: ToolSpec[],
): Promise<Map<string, Verdict>> {
  const { setup, turnId, db } = env;
  const sessionId = setup.session.id;
  const verdicts = new Map<string, Verdict>();
  // Which calls need a decision is journaled only when agent code decides it (a dynamic
  // needsApproval runs in the sandbox and may answer differently the next time); otherwise it
  // follows from the calls and the tools alone, and a replay computes the same answer.
  const isDynamic = calls.some((call) => {
    const spec = tools.find((candidate) => candidate.name === call.toolName);
    return !call.invalid && spec?.kind === "agent" && spec.tool.needsApproval === "dynamic";
  });
  // Agent code deciding, or calls parked: only once the step that asked for them is recorded
  // (its record may still be being written, step-journal.ts).
  if (isDynamic) await env.settled?.();
  const needing = isDynamic
    ? await env.step(`${keyPrefix}:gate:${step}`, () => callsNeedingApproval(env, calls, tools))
    : await callsNeedingApproval(env, calls, tools);
  if (needing.length === 0 || !env.approvals) return verdicts;
  await env.settled?.();
  const isUnattended = setup.session.mode === "task" || setup.session.purpose === "eval";
  if (isUnattended && setup.session.unattendedApprovals === "deny") {
    await env.step(`${keyPrefix}:unattended:${step}`, () =>
      appendEvents({
        db,
        sessionId,
        events: needing.flatMap((call) => [
          requested(turnId, call, setup.session.auth as Principal),
          resolved(turnId, call.callId, "denied", undefined, "unattended"),
        ]),
      }),
    );
    for (const call of needing)
      verdicts.set(call.callId, {
        denied: "denied: nobody can approve calls in this session (the agent denies them when unattended)",
      });
    return verdicts;
  }
  const { timeoutMs } = env.approvals;
  const waits = needing.map((call) => ({ call, wait: env.approvals!.park(timeoutMs) }));
  await env.step(`${keyPrefix}:park:${step}`, () =>
    park(
      env,
      waits.map(({ call, wait }) => ({ call, awakeableId: wait.id })),
      timeoutMs,
    ),
  );
  for (const { call, wait } of waits) {
    let isExpired = false;
    try {
      await wait.promise;
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
      isExpired = true;
    }
    verdicts.set(
      call.callId,
      await env.step(`${keyPrefix}:decision:${call.callId}`, () => readDecision(env, call.callId, isExpired)),
    );
  }
  return verdicts;
}

async function callsNeedingApproval(env: LoopEnv, calls: ToolCallRequest[], tools: ToolSpec[]): Promise<Parked[]> {
  const { session } = env.setup;
  const needing: Parked[] = [];
  for (const call of calls) {
    const spec = tools.find((candidate) => candidate.name === call.toolName);
    if (call.invalid || !spec || spec.kind === "task") continue;
    const rule = spec.kind === "agent" ? spec.tool.needsApproval : spec.needsApproval === true;
    if (rule === false) continue;
    // A dry-run write is stubbed, not run: there is nothing to approve.
    if (session.dryRun && spec.effect === "write") continue;
    let needs = rule === true;
    if (spec.kind === "agent" && spec.tool.needsApproval === "dynamic") {
      const context = {
        toolCallId: call.callId,
        session: sessionInfo(env.setup),
        workspaceDir: env.setup.workspaceDir,
        stateRoot: env.setup.stateRoot,
      };
      // A function that throws, hangs or cannot be reached counts as "yes": the safe side.
      needs = await env
        .sandbox()
        .call("needsApproval", { file: spec.tool.file, input: call.input, context }, { signal: env.signal })
        .then(
          (answer) => answer.needsApproval,
          () => true,
        );
    }
    if (needs) needing.push({ callId: call.callId, toolName: call.toolName, args: call.input ?? null });
  }
  return needing;
}

async function park(env: LoopEnv, parked: { call: Parked; awakeableId: string }[], timeoutMs: number): Promise<void> {
  const { setup, turnId } = env;
  const requestedBy = setup.session.auth as Principal;
  const expiresAt = new Date(Date.now() + timeoutMs);
  await pgTransaction(env.db, async (client) => {
    for (const { call, awakeableId } of parked) {
      await client.query(
        // Timestamps are stored as UTC in columns without a zone (Prisma's convention).
        `INSERT INTO approvals (id, "sessionId", "turnId", "callId", "toolName", args, "requestedBy", "awakeableId", "expiresAt", "createdAt")
         VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, $6, $7, $8::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
         ON CONFLICT ("sessionId", "callId") DO NOTHING`,
        [
          setup.session.id,
          turnId,
          call.callId,
          call.toolName,
          storableJson(call.args),
          JSON.stringify(requestedBy),
          awakeableId,
          expiresAt.toISOString(),
        ],
      );
    }
    await appendEventsInTransaction({
      client,
      sessionId: setup.session.id,
      events: parked.map(({ call }) => requested(turnId, call, requestedBy)),
    });
  });
}

/** The recorded decision; an expired wait first marks a still-pending call as expired. */
async function readDecision(env: LoopEnv, callId: string, isExpired: boolean): Promise<Verdict> {
  const sessionId = env.setup.session.id;
  if (isExpired) {
    await pgTransaction(env.db, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE approvals SET status = 'expired', reason = 'expired', "decidedAt" = now() AT TIME ZONE 'UTC' WHERE "sessionId" = $1 AND "callId" = $2 AND status = 'pending'`,
        [sessionId, callId],
      );
      if (rowCount)
        await appendEventsInTransaction({
          client,
          sessionId,
          events: [resolved(env.turnId, callId, "denied", undefined, "expired")],
        });
    });
  }
  const { rows } = await poolOf(env.db).query<{ status: string; decidedBy: Principal | null; reason: string | null }>(
    `SELECT status, "decidedBy", reason FROM approvals WHERE "sessionId" = $1 AND "callId" = $2`,
    [sessionId, callId],
  );
  const row = rows[0];
  if (row?.status === "approved") return { approvedBy: row.decidedBy ?? undefined };
  if (row?.status === "expired") return { denied: "denied: nobody decided on this call before it expired" };
  const who = row?.decidedBy ? ` by ${row.decidedBy.attributes?.name ?? row.decidedBy.id}` : "";
  return { denied: `denied${who}${row?.reason ? `: ${row.reason}` : ""}` };
}

export function requested(turnId: string, call: Parked, requestedBy: Principal): NewEvent {
  return {
    type: "action.approval_requested",
    turnId,
    data: { callId: call.callId, toolName: call.toolName, args: call.args ?? null, requestedBy },
    idempotencyKey: `${turnId}:${call.callId}:approval-requested`,
  };
}

export function resolved(
  turnId: string,
  callId: string,
  decision: "approved" | "denied",
  approvedBy: Principal | undefined,
  reason: string | undefined,
): NewEvent {
  return {
    type: "action.approval_resolved",
    turnId,
    data: { callId, decision, ...(approvedBy ? { approvedBy } : {}), ...(reason ? { reason } : {}) },
    idempotencyKey: `${turnId}:${callId}:approval-resolved`,
  };
}
