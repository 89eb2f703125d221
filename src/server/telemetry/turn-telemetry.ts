// What the turn engine records (docs/telemetry.md): a span per run of a turn, per loop step, per
// model call and per tool call, and the turn, token, cost and tool metrics. Each is recorded where
// the work runs, inside its journaled step, so a replayed step records nothing again. With
// telemetry off each function returns at its first line (hot path: no allocation per step).
import type { Attributes } from "@opentelemetry/api";
import { modelCost } from "@/agents/runtime/models/prices";
import type { Usage } from "@/agents/sdk/events";
import { attr } from "./attributes";
import { noSpan, rootScope, type SpanScope } from "./span-scope";
import type { Telemetry } from "./telemetry";

/** A run of a turn: its span starts with the first work the run does (span-scope.ts). */
export function turnScope(
  telemetry: Telemetry | undefined,
  turn: { sessionId: string; turnId: string },
  startedAt: number,
): SpanScope {
  if (!telemetry) return noSpan;
  return rootScope(telemetry, "invoke_agent", {
    traceKey: turn.turnId,
    startTime: startedAt,
    attributes: { [attr.sessionId]: turn.sessionId, [attr.turnId]: turn.turnId },
  });
}

/** Once the setup is read: the agent on every span of the run, its name on the turn's. */
export function identifyTurn(
  span: SpanScope,
  agent: { agentId: string; versionId: string; name: string; modelId: string },
): void {
  if (span === noSpan) return;
  span.set({ [attr.agentId]: agent.agentId, [attr.agentVersionId]: agent.versionId }, { shared: true });
  span.set(
    { [attr.genAiOperation]: "invoke_agent", [attr.genAiAgentName]: agent.name, [attr.genAiModel]: agent.modelId },
    { name: `invoke_agent ${agent.name}` },
  );
}

/** How a run ended, on its span: a failed or retried run's span exists even if it did nothing else. */
export function endRun(span: SpanScope, end: { outcome: string; error?: string }): void {
  if (span === noSpan) return;
  const isFailure = end.outcome === "failed" || end.outcome === "retried";
  if (isFailure) span.context();
  span.set({ [attr.runOutcome]: end.outcome });
  span.end(isFailure ? end.error : undefined);
}

/** A loop step: the model call and the tool calls it asked for (in a subagent, under its `task` call). */
export function stepScope(parent: SpanScope, step: number, parentCallId?: string): SpanScope {
  if (parent === noSpan) return noSpan;
  return parent.child(`step ${step}`, {
    [attr.step]: step,
    ...(parentCallId ? { [attr.parentCallId]: parentCallId } : {}),
  });
}

export function modelCallScope(step: SpanScope, modelId: string): SpanScope {
  if (step === noSpan) return noSpan;
  return step.child(`chat ${modelId}`, { [attr.genAiOperation]: "chat", [attr.genAiModel]: modelId });
}

export function toolCallScope(step: SpanScope, call: { toolName: string; callId: string }): SpanScope {
  if (step === noSpan) return noSpan;
  return step.child(`execute_tool ${call.toolName}`, {
    [attr.genAiOperation]: "execute_tool",
    [attr.genAiToolName]: call.toolName,
    [attr.genAiToolCallId]: call.callId,
  });
}

/** A model call that ran: its tokens and cost, on its span and in the metrics. */
export function recordModelCall(
  telemetry: Telemetry | undefined,
  span: SpanScope,
  call: { agentId: string; modelId: string; usage?: Usage; error?: string },
): void {
  if (!telemetry && span === noSpan) return;
  const { usage } = call;
  if (usage) span.set({ [attr.genAiInputTokens]: usage.inputTokens, [attr.genAiOutputTokens]: usage.outputTokens });
  span.end(call.error);
  if (!telemetry || !usage) return;
  const base: Attributes = { [attr.agentId]: call.agentId, [attr.genAiModel]: call.modelId };
  const { tokens, cost } = telemetry.instruments;
  const types: [string, number | undefined][] = [
    ["input", usage.inputTokens],
    ["output", usage.outputTokens],
    ["cache_read", usage.cacheReadTokens],
    ["cache_write", usage.cacheWriteTokens],
    ["reasoning", usage.reasoningTokens],
  ];
  for (const [type, count] of types) if (count) tokens.add(count, { ...base, [attr.genAiTokenType]: type });
  const costUsd = modelCost(call.modelId, usage)?.totalUsd;
  if (costUsd) cost.add(costUsd, base);
}

/** A tool call that ran (or was denied): its outcome on its span and in the metrics. */
export function recordToolCall(
  telemetry: Telemetry | undefined,
  span: SpanScope,
  call: { agentId: string; toolName: string; isError: boolean; error?: string },
): void {
  if (!telemetry && span === noSpan) return;
  span.set({ [attr.toolOutcome]: call.isError ? "error" : "ok" });
  span.end(call.isError ? (call.error ?? "the tool answered an error") : undefined);
  if (!telemetry) return;
  const attributes: Attributes = {
    [attr.agentId]: call.agentId,
    [attr.genAiToolName]: call.toolName,
    [attr.toolOutcome]: call.isError ? "error" : "ok",
  };
  telemetry.instruments.toolCalls.add(1, attributes);
  if (call.isError) telemetry.instruments.toolErrors.add(1, attributes);
}

/** A turn's end, recorded once where the end is written (its finish step, or an early end). */
export function recordTurnEnd(
  telemetry: Telemetry | undefined,
  end: { agentId: string; outcome: "completed" | "failed" | "cancelled"; code?: string; startedAt: number },
): void {
  if (!telemetry) return;
  const attributes: Attributes = {
    [attr.agentId]: end.agentId,
    [attr.turnOutcome]: end.outcome,
    ...(end.code ? { [attr.failureCode]: end.code } : {}),
  };
  telemetry.instruments.turns.add(1, attributes);
  telemetry.instruments.turnDuration.record((Date.now() - end.startedAt) / 1000, attributes);
}
