// The platform's side of `decide` (src/agents/sdk/extensions/jev.ts, docs/compatibility.md,
// "decide"): one structured call of the agent's model, here in the worker and never in the
// sandbox, whose answer must be of the requested type or the caller gets an error saying what came
// back. Its tokens and cost count in the agent's model metrics, like a turn's model calls, and, in a
// tool call, in its turn's usage. At most maxDecisionsPerCall per tool call, hook, schedule run or
// route request: agent code in a loop cannot spend without end.
import type { PrismaClient } from "@prisma/client";
import { generateText, jsonSchema, type LanguageModelUsage, NoObjectGeneratedError, Output } from "ai";
import type { AgentManifest } from "@/agents/loader/manifest";
import { chooseModel } from "@/agents/runtime/models/model-choice";
import { modelCost } from "@/agents/runtime/models/prices";
import { resolveModel, type ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import {
  answerJsonSchema,
  answerShape,
  checkAnswer,
  contextText,
  type DecisionRequest,
  decisionRequestProblem,
} from "@/agents/sdk/extensions/decision";
import { AppError } from "@/server/errors";
import { noSpan } from "@/server/telemetry/span-scope";
import type { Telemetry } from "@/server/telemetry/telemetry";
import { recordModelCall } from "@/server/telemetry/turn-telemetry";
import type { Usage } from "@/agents/sdk/events";
import type { HostContext } from "./host-context";

export type DecisionServices = {
  db: PrismaClient;
  models: ModelProviderSettings;
  /** The instance's default model, for an agent that names none (AGENTFOLD_DEFAULT_MODEL). */
  defaultModel: string;
  telemetry?: Telemetry;
};

export const maxDecisionsPerCall = 20;
// Counted per host context: one per tool call, hook, schedule run or route request.
const decisionsMade = new WeakMap<HostContext, number>();

const system =
  "You make one decision for an AI agent's code. Read the question and its context, then answer with one JSON " +
  'object and nothing else: {"answer": <your answer>}.';

export async function decideForAgent(
  services: DecisionServices,
  host: HostContext,
  params: unknown,
  signal?: AbortSignal,
): Promise<string | number | boolean> {
  const problem = decisionRequestProblem(params);
  if (problem) throw new AppError("invalid_input", `decide: ${problem}`);
  const request = params as DecisionRequest;
  const made = decisionsMade.get(host) ?? 0;
  if (made >= maxDecisionsPerCall)
    throw new AppError(
      "rate_limited",
      `decide: at most ${maxDecisionsPerCall} decisions per tool call, hook, schedule run or route request`,
    );
  decisionsMade.set(host, made + 1);
  const version = await services.db.agentVersion.findUnique({
    where: { id: host.versionId },
    select: { manifest: true },
  });
  const manifest = version?.manifest as AgentManifest | null;
  const model = chooseModel(manifest?.model, {
    defaultModel: services.defaultModel,
    aliases: services.models.aliases,
  });
  let answer: unknown;
  try {
    const result = await generateText({
      model: resolveModel(model.id, services.models, model.providerOptions),
      output: Output.object({ schema: jsonSchema(answerJsonSchema(request)), name: "decision" }),
      system,
      prompt: promptOf(request),
      ...(signal ? { abortSignal: signal } : {}),
    });
    spent(services, host, model.id, result.usage);
    answer = result.output;
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    if (error.usage) spent(services, host, model.id, error.usage);
    const text = (error.text ?? "").slice(0, 200);
    throw new Error(
      `decide: the model (${model.id}) gave no JSON answer: ${JSON.stringify(text)}; expected ${answerShape(request)}`,
    );
  }
  const checked = checkAnswer(request, answer);
  // The model's answer, not the caller's request, is at fault: no error code for agent code to branch on.
  if (!checked.ok) throw new Error(`decide: the model (${model.id}) ${checked.problem}`);
  return checked.value;
}

/** A decision's tokens: in the model metrics, and in the turn's usage when a tool call made it. */
function spent(services: DecisionServices, host: HostContext, modelId: string, languageUsage: LanguageModelUsage) {
  const usage = toUsage(languageUsage);
  recordModelCall(services.telemetry, noSpan, { agentId: host.agentId, modelId, usage });
  host.spend?.({ usage, costUsd: modelCost(modelId, usage)?.totalUsd ?? null });
}

function promptOf(request: DecisionRequest): string {
  const context = request.context === undefined ? "" : `\n\nContext:\n${contextText(request.context)}`;
  return `Question:\n${request.question}${context}\n\nAnswer with ${answerShape(request)}.`;
}

function toUsage(usage: LanguageModelUsage): Usage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}
