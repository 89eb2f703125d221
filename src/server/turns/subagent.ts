// A `task` call: the named subagent runs its own loop with its own instructions and model (the
// parent's unless it names one) and the parent's tools, but cannot delegate further. Its final
// text is the call's result. Its tool calls carry `parentCallId` = the task call's id.
import { appendEvents, type NewEvent } from "@/server/events/append-events";
import { noSpan, type SpanScope } from "@/server/telemetry/span-scope";
import { agentLoop } from "./agent-loop";
import type { LoopEnv, Spend, ToolCallRequest, ToolCallResult, TurnSetup } from "./engine";
import { failed } from "./tool-output";
import { chooseModel } from "@/agents/runtime/models/model-choice";
import { turnTools, type ToolSpec } from "./turn-tools";

export async function runSubagent(
  env: LoopEnv,
  call: ToolCallRequest,
  parent: Pick<TurnSetup, "modelId" | "modelOptions">,
  /** The `task` call's span (started by the subagent's first work that runs). */
  trace: SpanScope = noSpan,
  /** The parent turn's MCP connection tools. */
  connections: ToolSpec[] = [],
): Promise<ToolCallResult & Spend> {
  try {
    const result = await delegate(env, call, parent, trace, connections);
    trace.end(result.isError && typeof result.output === "string" ? result.output : undefined);
    return result;
  } catch (error) {
    trace.end(String(error));
    throw error;
  }
}

async function delegate(
  env: LoopEnv,
  call: ToolCallRequest,
  parent: Pick<TurnSetup, "modelId" | "modelOptions">,
  trace: SpanScope,
  connections: ToolSpec[],
): Promise<ToolCallResult & Spend> {
  const { db, step, setup, turnId } = env;
  const sessionId = setup.session.id;
  const input = (call.input ?? {}) as { subagent?: unknown; prompt?: unknown };
  const subagent = setup.manifest.subagents.find((candidate) => candidate.id === input.subagent);
  const prompt = typeof input.prompt === "string" ? input.prompt : "";
  const resultKey = `${turnId}:${call.callId}:result`;
  const finish = (outcome: ToolCallResult, spend: Spend) =>
    step(`${turnId}:${call.callId}:completed`, async () => {
      const events: NewEvent[] = [
        {
          type: "action.result",
          turnId,
          data: { callId: call.callId, toolName: call.toolName, output: outcome.output, isError: outcome.isError },
          idempotencyKey: resultKey,
        },
      ];
      if (subagent) {
        const result = typeof outcome.output === "string" ? outcome.output : JSON.stringify(outcome.output);
        events.unshift({
          type: "subagent.completed",
          turnId,
          data: { callId: call.callId, subagent: subagent.id, result, ...(outcome.isError ? { isError: true } : {}) },
          idempotencyKey: `${turnId}:${call.callId}:subagent-completed`,
        });
      }
      await appendEvents({ db, sessionId, events });
      return { ...outcome, ...spend };
    });

  const none: Spend = {
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
  };
  if (!subagent) {
    const known = setup.manifest.subagents.map((s) => s.id).join(", ");
    return finish(failed(`there is no subagent named ${String(input.subagent)}; subagents: ${known}`), none);
  }
  trace.set({ "agentfold.subagent": subagent.id });
  // A subagent naming no model, or one this instance cannot map, runs on its parent's.
  const inherited = { id: parent.modelId, providerOptions: parent.modelOptions, notes: [] };
  const model = chooseModel(subagent.model, { defaultModel: parent.modelId, aliases: env.models.aliases }, inherited);
  await step(`${turnId}:${call.callId}:called`, () =>
    appendEvents({
      db,
      sessionId,
      events: [
        {
          type: "subagent.called",
          turnId,
          data: { callId: call.callId, subagent: subagent.id, prompt },
          idempotencyKey: `${turnId}:${call.callId}:subagent-called`,
        },
      ],
    }),
  );
  const outcome = await agentLoop(
    { ...env, delegate: undefined, trace },
    {
      keyPrefix: `${turnId}:${call.callId}`,
      parentCallId: call.callId,
      modelId: model.id,
      modelOptions: model.providerOptions,
      system: subagent.instructionsText,
      messages: [{ role: "user", content: prompt }],
      // Subagents share the parent's tools, MCP connections included.
      tools: turnTools(setup, { canDelegate: false, connections }),
      firstStep: 0,
    },
  );
  if (outcome.kind === "cancelled")
    return { ...failed("cancelled: the turn was stopped"), cancelled: true, ...outcome };
  if (outcome.kind === "failed") return finish(failed(`${subagent.id} failed: ${outcome.message}`), outcome);
  return finish({ output: outcome.text, isError: false }, outcome);
}
