// Model settings from the environment: the providers for the worker's model calls, and the routing
// (default model, aliases) that validation and turns share.
import type { Env } from "@/env";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";

export function modelSettings(config: Env): ModelProviderSettings {
  return {
    openaiApiKey: config.OPENAI_API_KEY,
    openaiBaseUrl: config.OPENAI_BASE_URL,
    anthropicApiKey: config.ANTHROPIC_API_KEY,
    anthropicBaseUrl: config.ANTHROPIC_BASE_URL,
    openaiCompatibleBaseUrl: config.OPENAI_COMPATIBLE_BASE_URL,
    xaiApiKey: config.XAI_API_KEY,
    xaiBaseUrl: config.XAI_BASE_URL,
    aliases: config.AGENTFOLD_MODEL_ALIASES,
  };
}

/** What decides an agent's model on this instance, for validation (uploads, `agentfold validate`). */
export function modelRouting(config: Env): ModelRouting {
  return { defaultModel: config.AGENTFOLD_DEFAULT_MODEL, aliases: config.AGENTFOLD_MODEL_ALIASES };
}
