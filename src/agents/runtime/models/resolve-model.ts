// Turns a `provider:model` id into an AI SDK model. Settings come in as a parameter (src/env.ts
// reads them); a missing key or URL is reported by the variable a person has to set.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";
import { createXai } from "@ai-sdk/xai";
import { defaultSettingsMiddleware, wrapLanguageModel } from "ai";
import { createLocalScriptedModel, localScriptedModelId } from "./local-scripted";

export type ModelProviderSettings = {
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  openaiCompatibleBaseUrl?: string;
  xaiApiKey?: string;
  xaiBaseUrl?: string;
  /** AGENTFOLD_MODEL_ALIASES: Cursor's bare model ids and the `provider:model` each runs on. */
  aliases?: Record<string, string>;
  /** Tests: `local:scripted` paces its stream parts this far apart, as a real model's arrive. */
  scriptedChunkDelayMs?: number;
};

// Passed explicitly: left undefined, the SDKs would read OPENAI_BASE_URL / ANTHROPIC_BASE_URL from
// process.env themselves, and a stray variable could send the API key somewhere src/env.ts never saw.
const openaiDefaultBaseUrl = "https://api.openai.com/v1";
const anthropicDefaultBaseUrl = "https://api.anthropic.com/v1";
const xaiDefaultBaseUrl = "https://api.x.ai/v1";

/** A model id that names no model this platform can call as configured: the same on every try. */
export class ModelResolutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelResolutionError";
  }
}

export const modelProviders = ["local", "openai", "anthropic", "openai-compatible", "xai"] as const;

/** `providerOptions`: the agent's model params as its provider takes them (model-choice.ts). */
export function resolveModel(
  id: string,
  providers: ModelProviderSettings,
  providerOptions?: SharedV3ProviderOptions,
): LanguageModelV3 {
  const model = providerModel(id, providers);
  if (!providerOptions) return model;
  return wrapLanguageModel({ model, middleware: defaultSettingsMiddleware({ settings: { providerOptions } }) });
}

function providerModel(id: string, providers: ModelProviderSettings): LanguageModelV3 {
  const problem = modelIdProblem(id);
  if (problem) throw new ModelResolutionError(problem);
  const { provider, model } = parseModelId(id);
  switch (provider) {
    case "local":
      return createLocalScriptedModel({ chunkDelayMs: providers.scriptedChunkDelayMs ?? 0 });
    case "openai":
      if (!providers.openaiApiKey) throw new ModelResolutionError(`model ${id} needs OPENAI_API_KEY`);
      return createOpenAI({ apiKey: providers.openaiApiKey, baseURL: providers.openaiBaseUrl ?? openaiDefaultBaseUrl })(
        model,
      );
    case "anthropic":
      if (!providers.anthropicApiKey) throw new ModelResolutionError(`model ${id} needs ANTHROPIC_API_KEY`);
      return createAnthropic({
        apiKey: providers.anthropicApiKey,
        baseURL: providers.anthropicBaseUrl ?? anthropicDefaultBaseUrl,
      })(model);
    case "openai-compatible":
      if (!providers.openaiCompatibleBaseUrl) {
        throw new ModelResolutionError(
          `model ${id} needs OPENAI_COMPATIBLE_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)`,
        );
      }
      // includeUsage sends stream_options.include_usage: Chat Completions servers (OpenAI's own, vLLM)
      // stream token usage only when asked, and without it such turns report no tokens and no cost.
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: providers.openaiCompatibleBaseUrl,
        includeUsage: true,
      })(model);
    case "xai":
      if (!providers.xaiApiKey) throw new ModelResolutionError(`model ${id} needs XAI_API_KEY`);
      return createXai({ apiKey: providers.xaiApiKey, baseURL: providers.xaiBaseUrl ?? xaiDefaultBaseUrl })(model);
    default:
      throw new ModelResolutionError(`model ${id} has an unknown provider "${provider}"`);
  }
}

/** Why a model id can never resolve here, whatever is configured; undefined when it can (a missing
 * key is the instance's to set, not the folder's fault). Validation and resolveModel both ask. */
export function modelIdProblem(id: string): string | undefined {
  let provider: string;
  try {
    provider = parseModelId(id).provider;
  } catch (error) {
    return (error as Error).message;
  }
  if (!(modelProviders as readonly string[]).includes(provider))
    return `model ${id} has an unknown provider "${provider}"; use one of: ${modelProviders.join(", ")}`;
  if (provider === "local" && id !== localScriptedModelId)
    return `model ${id} does not exist; the only local model is ${localScriptedModelId}`;
  return undefined;
}

/** Splits at the first colon only: Ollama tags such as `qwen2.5:7b` keep theirs. */
export function parseModelId(id: string): { provider: string; model: string } {
  const colon = id.indexOf(":");
  const provider = id.slice(0, colon);
  const model = id.slice(colon + 1).trim();
  if (colon <= 0 || !model) {
    throw new ModelResolutionError(
      `model id "${id}" must look like provider:model, e.g. ${localScriptedModelId} or openai:gpt-5`,
    );
  }
  return { provider, model };
}

/**
 * The model an agent runs on when it names none: the configured default (AGENTFOLD_DEFAULT_MODEL),
 * else the offline model. A configured provider is never picked silently; choosing a paid model is
 * the operator's decision.
 */
export function defaultModelId(_settings: ModelProviderSettings, configured?: string): string {
  return configured?.trim() || localScriptedModelId;
}

export function isOfflineModel(id: string): boolean {
  return id === localScriptedModelId;
}
