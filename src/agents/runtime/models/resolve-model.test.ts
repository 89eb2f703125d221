import { describe, expect, it } from "vitest";
import { defaultModelId, isOfflineModel, parseModelId, resolveModel } from "./resolve-model";

const all = {
  openaiApiKey: "sk-test",
  anthropicApiKey: "sk-ant-test",
  openaiCompatibleBaseUrl: "http://127.0.0.1:11434/v1",
  xaiApiKey: "xai-test",
};

describe("resolveModel", () => {
  it("resolves every provider's ids to a V3 model of that provider", () => {
    const resolved = [
      "local:scripted",
      "openai:gpt-5",
      "anthropic:claude-sonnet-4-5",
      "openai-compatible:qwen2.5:7b",
      "xai:grok-4",
    ].map((id) => resolveModel(id, all));
    expect(resolved.map((model) => [model.specificationVersion, model.provider, model.modelId])).toEqual([
      ["v3", "local", "scripted"],
      ["v3", "openai.responses", "gpt-5"],
      ["v3", "anthropic.messages", "claude-sonnet-4-5"],
      ["v3", "openai-compatible.chat", "qwen2.5:7b"],
      ["v3", "xai.chat", "grok-4"],
    ]);
  });

  it("needs no settings at all for the offline model", () => {
    expect(resolveModel("local:scripted", {}).modelId).toBe("scripted");
  });

  it("names the variable to set when a provider is not configured", () => {
    expect(() => resolveModel("openai:gpt-5", {})).toThrow("model openai:gpt-5 needs OPENAI_API_KEY");
    expect(() => resolveModel("anthropic:claude-haiku-4-5", { openaiApiKey: "sk" })).toThrow(
      "model anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY",
    );
    expect(() => resolveModel("openai-compatible:llama3", {})).toThrow(
      "model openai-compatible:llama3 needs OPENAI_COMPATIBLE_BASE_URL",
    );
    expect(() => resolveModel("xai:grok-4", {})).toThrow("model xai:grok-4 needs XAI_API_KEY");
  });

  it("rejects malformed ids, unknown providers and unknown local models", () => {
    for (const id of ["gpt-5", ":gpt-5", "openai:", "openai: "]) {
      expect(() => resolveModel(id, all)).toThrow(`model id "${id}" must look like provider:model`);
    }
    expect(() => resolveModel("gemini:pro", all)).toThrow(
      'model gemini:pro has an unknown provider "gemini"; use one of: local, openai, anthropic, openai-compatible, xai',
    );
    expect(() => resolveModel("local:smart", all)).toThrow("the only local model is local:scripted");
  });

  it("splits ids at the first colon only", () => {
    expect(parseModelId("openai-compatible:llama3.1:8b-instruct")).toEqual({
      provider: "openai-compatible",
      model: "llama3.1:8b-instruct",
    });
  });
});

describe("defaultModelId and isOfflineModel", () => {
  it("uses the configured default, else the offline model", () => {
    expect(defaultModelId(all, "anthropic:claude-sonnet-4-5")).toBe("anthropic:claude-sonnet-4-5");
    expect(defaultModelId(all)).toBe("local:scripted");
    expect(defaultModelId({}, "")).toBe("local:scripted");
  });

  it("knows which model runs offline", () => {
    expect(isOfflineModel("local:scripted")).toBe(true);
    expect(isOfflineModel("openai:gpt-5")).toBe(false);
    expect(isOfflineModel("openai-compatible:local")).toBe(false);
  });
});
