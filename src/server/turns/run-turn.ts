// One turn, run by the worker inside the session's durable object (docs/turns.md): load what the
// turn needs, prepare the workspace, run the model ⇄ tools loop, hold the final text to the result
// contract (up to two repairs), and finish. Every side effect sits in a named, journaled step and
// every append carries an idempotency key derived from the turn and step, so a turn resumed after
// a crash appends nothing twice and re-runs no completed tool call.
import type { ModelMessage } from "ai";
import { SandboxError, type Sandbox } from "@/agents/sandbox/sandbox";
import { versionSandboxSpec } from "@/server/agents/storage";
import type { TurnRequest } from "@/server/durable/runtime";
import { createReminder } from "@/server/reminders/reminders";
import { noSpan } from "@/server/telemetry/span-scope";
import { identifyTurn, recordTurnEnd } from "@/server/telemetry/turn-telemetry";
import { agentLoop } from "./agent-loop";
import { deliverNudges } from "./deliver-nudges";
import type { LoopEnv, Spend, TurnDeps, TurnEnd, TurnFinish, TurnSetup } from "./engine";
import { finishTurn } from "./finish-turn";
import { judgeResult } from "./judge-result";
import { addSpend, zeroUsage } from "./model-step";
import { refreshMemoryView } from "./memory-view";
import { prepareSessionWorkspace } from "./prepare-session-workspace";
import { openConnections } from "./open-connections";
import { runSubagent } from "./subagent";
import { loadTurnSetup } from "./turn-setup";
import { turnTools } from "./turn-tools";
import { acknowledgeSlot, acquireSlot, releaseTurnSlot } from "./turn-slots";

export async function runTurn(deps: TurnDeps, turn: TurnRequest): Promise<TurnFinish> {
  const { db, step } = deps;
  const { sessionId, turnId } = turn;
  // The setup reads the same on every run of the turn (turn-setup.ts), alongside the journal.
  const conversation: ModelMessage[] | undefined = deps.opensSession
    ? [{ role: "user", content: turn.message }]
    : undefined;
  // Seeding the workspace is idempotent (done once, then marked). A journaled step is needed only
  // when running prepare again could change the outcome: this send's workspaceFiles would
  // overwrite what tools have since written, and an unattended session's approval policy, which
  // people may change meanwhile, decides the approval gate. Chat turns without files skip it, and
  // lay their workspace out as soon as the setup is read, while the journal's first read (which
  // takes the epoch, or checks an eager run's) is still in flight: it records nothing.
  const hasFiles = Object.keys(turn.workspaceFiles ?? {}).length > 0;
  const needsStep = (loaded: TurnSetup) =>
    hasFiles || loaded.session.mode === "task" || loaded.session.purpose === "eval";
  const prepare = (loaded: TurnSetup) => {
    prepareSessionWorkspace(deps.dataDir, loaded, turn, deps.workspaces);
    return { title: loaded.session.title ?? null, unattendedApprovals: loaded.session.unattendedApprovals };
  };
  const [{ loaded, prepared }] = await Promise.all([
    loadTurnSetup({
      db,
      dataDir: deps.dataDir,
      sessionId,
      turnId,
      defaultModel: deps.defaultModel,
      aliases: deps.models.aliases,
      conversation,
      row: deps.setupRow,
    }).then((loaded) => ({
      loaded,
      prepared: needsStep(loaded) ? undefined : prepare(loaded),
    })),
    deps.started,
  ]);
  const trace = deps.trace ?? noSpan;
  const { agentId, versionId } = loaded.session;
  identifyTurn(trace, { agentId, versionId, name: loaded.manifest.name, modelId: loaded.modelId });
  const settings = prepared ?? (await step(`${turnId}:prepare`, async () => prepare(loaded)));
  // Hooks may have journaled since the last turn (memoryHook): the workspace shows it.
  if (loaded.manifest.hooks.length > 0) await refreshMemoryView(db, loaded.session.agentId, loaded.workspaceDir);
  const setup: TurnSetup = {
    ...loaded,
    session: {
      ...loaded.session,
      title: settings.title ?? undefined,
      unattendedApprovals: settings.unattendedApprovals,
    },
  };
  // A capped agent first waits for a slot.
  const max = setup.manifest.maxRunningTurns;
  if (max) {
    const slot = deps.awakeable();
    const request = { agentId: setup.session.agentId, sessionId, turnId, max, awakeableId: slot.id };
    const { acquired } = await step(`${turnId}:slot`, () => acquireSlot(db, request));
    if (!acquired) {
      await slot.promise;
      await step(`${turnId}:slot-taken`, () => acknowledgeSlot(db, turnId));
    }
  }
  const end = await runLoop(deps, setup, turnId);
  const finish = await step<TurnFinish>(`${turnId}:finish`, async (seal) => {
    // Decided here and journaled, so a run of the turn after a crash takes the same way out.
    const stopped = end.kind === "cancelled" || deps.signal.aborted;
    // The finish is work of this run: the run's span holds it.
    trace.context();
    const next = await finishTurn({
      db,
      sessionId,
      turnId,
      mode: setup.session.mode,
      workspaceDir: setup.workspaceDir,
      end,
      seal: (drained) => seal({ next: drained, stopped }),
      settled: deps.settled,
    });
    recordTurnEnd(deps.telemetry, {
      agentId,
      outcome: stopped ? "cancelled" : end.kind,
      code: end.kind === "failed" ? end.code : undefined,
      startedAt: deps.runStartedAt ?? Date.now(),
    });
    return { next, stopped };
  });
  if (max) await handOnSlot(deps, sessionId, turnId);
  // The turn has ended: lay out workspaces for the next new sessions now.
  deps.workspaces?.refill();
  return finish;
}

async function runLoop(deps: TurnDeps, setup: TurnSetup, turnId: string): Promise<TurnEnd> {
  const { db, step, signal } = deps;
  const sandbox = (): Sandbox => {
    if (!setup.bundlePath) throw new SandboxError("failed_to_start", "this agent version has no code to run");
    return deps.sandboxes.forVersion(
      versionSandboxSpec(deps.dataDir, {
        agentId: setup.session.agentId,
        versionId: setup.session.versionId,
        bundlePath: setup.bundlePath,
      }),
    );
  };
  const env: LoopEnv = {
    db,
    step,
    settled: deps.settled,
    earlier: deps.earlier,
    setup,
    turnId,
    signal,
    models: deps.models,
    sandbox,
    retryDelayMs: deps.retryDelayMs,
    approvals: deps.approvals,
    telemetry: deps.telemetry,
    trace: deps.trace,
  };
  const connections = await openConnections(deps, setup, turnId);
  if (!Array.isArray(connections)) return connections;
  env.delegate = (call, trace) => runSubagent(env, call, setup, trace, connections);
  let messages: ModelMessage[] = setup.messages;
  let firstStep = 0;
  let repair: string | undefined;
  let spent: Spend = { usage: zeroUsage, costUsd: 0 };
  for (let repairs = 0; ; repairs++) {
    const outcome = await agentLoop(env, {
      keyPrefix: turnId,
      modelId: setup.modelId,
      modelOptions: setup.modelOptions,
      system: setup.system,
      messages,
      tools: turnTools(setup, {
        canDelegate: true,
        connections,
        remind: deps.runtime
          ? (input) => createReminder({ db, runtime: deps.runtime!, sessionId: setup.session.id, input })
          : undefined,
        tagArtifact: (input) =>
          sandbox().call(
            "tagArtifact",
            { input, sessionId: setup.session.id, turnId },
            {
              signal,
              hostContext: {
                agentId: setup.session.agentId,
                versionId: setup.session.versionId,
                bundlePath: setup.bundlePath,
                sessionId: setup.session.id,
                turnId,
                principal: setup.session.auth,
              },
            },
          ),
      }),
      firstStep,
      repair,
      // turn.started goes out with the first step's start.
      leading:
        repairs === 0 ? [{ type: "turn.started", turnId, data: {}, idempotencyKey: `${turnId}:started` }] : undefined,
      steer: (n, stored) =>
        deliverNudges(
          { db, earlier: deps.earlier, setup, turnId, settled: deps.settled, mayHavePending: deps.mayHavePending },
          n,
          stored,
        ),
      // The finish comes next, unless a result contract judges the answer first.
      deferFinalRecord: !setup.manifest.result,
    });
    spent = addSpend(spent, outcome);
    const cost = spent.costUsd === null ? undefined : { totalUsd: spent.costUsd, model: setup.modelId };
    if (outcome.kind === "cancelled") return { kind: "cancelled" };
    if (outcome.kind === "failed")
      return { kind: "failed", message: outcome.message, code: outcome.code, usage: spent.usage };
    if (!setup.manifest.result) return { kind: "completed", text: outcome.text, usage: spent.usage, cost };
    const judged = await judgeResult({ step, setup, sandbox, signal, turnId, text: outcome.text, repairs });
    if (judged.kind === "cancelled") return { kind: "cancelled" };
    if (judged.kind === "committed")
      return { kind: "completed", text: outcome.text, usage: spent.usage, cost, result: judged.result };
    if (judged.kind === "failed")
      return {
        kind: "failed",
        message: judged.message,
        code: "result_rejected",
        text: outcome.text,
        usage: spent.usage,
      };
    // Same turn, same tools and workspace: the model revises with the feedback.
    repair = judged.feedback;
    firstStep = outcome.nextStep;
    // From where the loop stopped: its tool calls and results stay in view.
    messages = [
      ...outcome.messages,
      { role: "user", content: `Your reply was rejected: ${judged.feedback}\nRevise it.` },
    ];
  }
}

/** Frees the turn's maxRunningTurns slot (or queue place) and wakes the turns promoted into it. */
export async function handOnSlot(
  deps: Pick<TurnDeps, "db" | "step" | "resolveAwakeable">,
  sessionId: string,
  turnId: string,
): Promise<void> {
  const promoted = await deps.step(`${turnId}:release`, () => releaseTurnSlot(deps.db, sessionId, turnId));
  for (const id of promoted) deps.resolveAwakeable(id);
}
