// The model ⇄ tools loop shared by a turn and its subagents: a model step, then each tool call it
// asked for (each its own journaled step; `task` calls run a subagent), then the next model step
// with the results, until the model answers without tools. A worker that dies anywhere in here
// resumes from the journal: completed steps return their recorded outcome and never run again.
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { ModelMessage, ToolResultPart } from "ai";
import { modelCost } from "@/agents/runtime/models/prices";
import { resolveModel } from "@/agents/runtime/models/resolve-model";
import { appendEvents, type NewEvent } from "@/server/events/append-events";
import { gateApprovals } from "@/server/approvals/gate-approvals";
import { noSpan, type SpanScope } from "@/server/telemetry/span-scope";
import { modelCallScope, recordModelCall, stepScope, toolCallScope } from "@/server/telemetry/turn-telemetry";
import type { LoopEnv, LoopOutcome, ModelStepOutcome, Spend, ToolCallResult } from "./engine";
import { addSpend, runModelStep, zeroUsage } from "./model-step";
import { runToolCall } from "./tool-call";
import { toModelOutput } from "./tool-output";
import type { ToolSpec } from "./turn-tools";

export type LoopOptions = {
  keyPrefix: string;
  parentCallId?: string;
  modelId: string;
  /** The agent's model params as provider options (model-choice.ts). */
  modelOptions?: SharedV3ProviderOptions;
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  firstStep: number;
  repair?: string;
  /** Recorded with the first step's start (turn.started). */
  leading?: NewEvent[];
  /** The final answer's step may leave its record to the turn's next append (runModelStep's
   * deferRecord): only where that append comes next, with nothing in between. */
  deferFinalRecord?: boolean;
  /** At each tool boundary, the messages to steer into the turn (nudges); see runModelStep. */
  steer?: (step: number, stored: () => Promise<void>) => Promise<ModelMessage[]>;
};

export const maxStepsPerLoop = 25;

export async function agentLoop(env: LoopEnv, options: LoopOptions): Promise<LoopOutcome> {
  const { db, step, setup, turnId, signal } = env;
  const messages = [...options.messages];
  let spend: Spend = { usage: zeroUsage, costUsd: 0 };
  const add = (more: Spend) => {
    spend = addSpend(spend, more);
  };
  const last = options.firstStep + maxStepsPerLoop;
  // A tool batch is closed (actions.completed, step.completed) in the same append that starts
  // the next step: one journaled step fewer per batch.
  let leading: NewEvent[] = options.leading ?? [];
  for (let n = options.firstStep; n < last; n++) {
    // Its span starts only if this run does the step's work (a replay returns recorded outcomes).
    const trace = stepScope(env.trace ?? noSpan, n, options.parentCallId);
    try {
      const outcome = await step<ModelStepOutcome>(`${options.keyPrefix}:model:${n}`, (seal) =>
        tracedModelStep(env, trace, options.modelId, () =>
          runModelStep({
            seal,
            db,
            earlier: env.earlier,
            sessionId: setup.session.id,
            turnId,
            keyPrefix: options.keyPrefix,
            step: n,
            model: resolveModel(options.modelId, env.models, options.modelOptions),
            system: options.system,
            messages,
            tools: options.tools,
            signal,
            parentCallId: options.parentCallId,
            repair: n === options.firstStep ? options.repair : undefined,
            leading,
            steer: n > options.firstStep && options.steer ? (stored) => options.steer!(n, stored) : undefined,
            deferRecord: options.deferFinalRecord,
          }),
        ),
      );
      if (outcome.kind !== "ok") return { ...outcome, ...spend, nextStep: n + 1 };
      add({ usage: outcome.usage, costUsd: modelCost(options.modelId, outcome.usage)?.totalUsd ?? null });
      messages.push(...outcome.steered, ...outcome.response);
      if (outcome.toolCalls.length === 0)
        return { kind: "ok", text: outcome.text, messages, ...spend, nextStep: n + 1 };

      // Calls that need a human decision wait here, all parked before any waits (docs/turns.md "Approvals").
      const verdicts = await gateApprovals(env, options.keyPrefix, n, outcome.toolCalls, options.tools);
      const results: ToolResultPart[] = [];
      for (const call of outcome.toolCalls) {
        const verdict = verdicts.get(call.callId);
        const spec = options.tools.find((candidate) => candidate.name === call.toolName);
        // A read tool's result may still be being written when the next step starts (its record
        // deferred: the next model step's reads and streaming overlap the commit). Anything else
        // runs only once every decision before it is recorded.
        const isRead = spec?.effect === "read" && spec.kind !== "task" && !call.invalid;
        if (!isRead) await env.settled?.();
        const result: ToolCallResult & Partial<Spend> =
          spec?.kind === "task" && env.delegate && !call.invalid
            ? await env.delegate(call, toolCallScope(trace, call))
            : await step<ToolCallResult>(`${options.keyPrefix}:tool:${call.callId}`, (seal) =>
                runToolCall(
                  { ...env, keyPrefix: options.keyPrefix, tools: options.tools, trace },
                  call,
                  verdict,
                  seal,
                  { deferRecord: isRead },
                ),
              );
        if (result.usage) add({ usage: result.usage, costUsd: result.costUsd ?? null });
        if (result.cancelled) return { kind: "cancelled", ...spend, nextStep: n + 1 };
        results.push({
          type: "tool-result",
          toolCallId: call.callId,
          toolName: call.toolName,
          output: toModelOutput(result),
        });
      }
      messages.push({ role: "tool", content: results });
      const parentCallId = options.parentCallId ? { parentCallId: options.parentCallId } : {};
      leading = [
        {
          type: "actions.completed",
          turnId,
          data: { callIds: outcome.toolCalls.map((call) => call.callId) },
          idempotencyKey: `${options.keyPrefix}:s${n}:actions-completed`,
        },
        {
          type: "step.completed",
          turnId,
          data: { step: n, durationMs: Date.now() - outcome.startedAt, ...parentCallId },
          idempotencyKey: `${options.keyPrefix}:s${n}:completed`,
        },
      ];
    } finally {
      trace.end();
    }
  }
  // The last batch is closed here: no next step will carry its closing events.
  await step(`${options.keyPrefix}:close:${last - 1}`, () =>
    appendEvents({ db, sessionId: setup.session.id, events: leading }),
  );
  return {
    kind: "failed",
    message: `the turn used all ${maxStepsPerLoop} model steps without a final answer`,
    code: "step_limit",
    ...spend,
    nextStep: last,
  };
}

/** A model step's run, with its span and its tokens and cost recorded (turn-telemetry.ts). */
async function tracedModelStep(
  env: LoopEnv,
  step: SpanScope,
  modelId: string,
  run: () => Promise<ModelStepOutcome>,
): Promise<ModelStepOutcome> {
  const span = modelCallScope(step, modelId);
  span.context();
  const agentId = env.setup.session.agentId;
  try {
    const outcome = await run();
    const error = outcome.kind === "failed" ? outcome.message : outcome.kind === "cancelled" ? "cancelled" : undefined;
    recordModelCall(env.telemetry, span, {
      agentId,
      modelId,
      usage: outcome.kind === "ok" ? outcome.usage : undefined,
      error,
    });
    return outcome;
  } catch (error) {
    recordModelCall(env.telemetry, span, { agentId, modelId, error: String(error) });
    throw error;
  }
}
