import { expect, it } from "vitest";
import { parseEnv } from "@/env";
import { modelSettings } from "./models";

it("passes every provider variable to the model layer", () => {
  const config = parseEnv({
    OPENAI_API_KEY: "sk-openai",
    OPENAI_BASE_URL: "https://gateway.internal/openai/v1",
    ANTHROPIC_API_KEY: "sk-ant",
    ANTHROPIC_BASE_URL: "https://gateway.internal/anthropic/v1",
    OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
    XAI_API_KEY: "xai-key",
    XAI_BASE_URL: "https://gateway.internal/xai/v1",
    AGENTFOLD_MODEL_ALIASES: "grok-4.5=xai:grok-4",
  });
  expect(modelSettings(config)).toEqual({
    openaiApiKey: "sk-openai",
    openaiBaseUrl: "https://gateway.internal/openai/v1",
    anthropicApiKey: "sk-ant",
    anthropicBaseUrl: "https://gateway.internal/anthropic/v1",
    openaiCompatibleBaseUrl: "http://127.0.0.1:11434/v1",
    xaiApiKey: "xai-key",
    xaiBaseUrl: "https://gateway.internal/xai/v1",
    aliases: { "grok-4.5": "xai:grok-4" },
  });
});
