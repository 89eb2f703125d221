// Model provider settings from the environment, for the worker's model calls.
import type { Env } from "@/env";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";

export function modelSettings(config: Env): ModelProviderSettings {
  return {
    openaiApiKey: config.OPENAI_API_KEY,
    openaiBaseUrl: config.OPENAI_BASE_URL,
    anthropicApiKey: config.ANTHROPIC_API_KEY,
    anthropicBaseUrl: config.ANTHROPIC_BASE_URL,
    openaiCompatibleBaseUrl: config.OPENAI_COMPATIBLE_BASE_URL,
  };
}
