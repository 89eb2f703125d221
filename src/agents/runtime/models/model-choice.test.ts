import { describe, expect, it } from "vitest";
import { type EnvError, parseEnv } from "@/env";
import { chooseModel, parseModelAliases } from "./model-choice";

const routing = { defaultModel: "local:scripted", aliases: { "grok-4.5": "xai:grok-4", "grok-4.7": "xai:grok-4" } };

describe("chooseModel", () => {
  it("runs provider:model ids as written, and Cursor's ids through the alias table", () => {
    expect(chooseModel("openai:gpt-5", routing)).toEqual({ id: "openai:gpt-5", notes: [] });
    expect(chooseModel("grok-4.7", routing)).toEqual({ id: "xai:grok-4", notes: [] });
    expect(chooseModel(undefined, routing)).toEqual({ id: "local:scripted", notes: [] });
  });

  it("falls back to the default model for a Cursor id with no alias, and says so", () => {
    expect(chooseModel("grok-5", routing)).toEqual({
      id: "local:scripted",
      notes: [
        'model "grok-5" is not a provider:model id and AGENTFOLD_MODEL_ALIASES has no alias for it: turns run on the default model local:scripted (docs/models.md, "Cursor\'s model ids")',
      ],
    });
  });

  it("passes params to the providers that take them and names the ones it ignores", () => {
    const params = [
      { id: "effort", value: "high" },
      { id: "fast", value: true },
      { id: "context", value: "1m" },
    ];
    expect(chooseModel({ id: "grok-4.5", params }, routing)).toEqual({
      id: "xai:grok-4",
      providerOptions: { xai: { reasoningEffort: "high" } },
      notes: [
        'model param fast=true is ignored on xai:grok-4: it takes effort (docs/models.md, "Params")',
        'model param context="1m" is ignored on xai:grok-4: it takes effort (docs/models.md, "Params")',
      ],
    });
    expect(chooseModel({ id: "anthropic:claude-opus-4-5", params }, routing).providerOptions).toEqual({
      anthropic: { effort: "high", speed: "fast" },
    });
    expect(chooseModel({ id: "local:scripted", params: [{ id: "effort", value: "low" }] }, routing).notes).toEqual([
      'model param effort="low" is ignored on local:scripted: it takes no params (docs/models.md, "Params")',
    ]);
    expect(chooseModel({ id: "xai:grok-4", params: [{ id: "effort", value: "max" }] }, routing)).toEqual({
      id: "xai:grok-4",
      notes: ['model param effort="max" is ignored: xai:grok-4 does not take that value'],
    });
  });

  it("lets a subagent without a model inherit its parent's choice", () => {
    const parent = { id: "xai:grok-4", providerOptions: { xai: { reasoningEffort: "low" } }, notes: [] };
    expect(chooseModel(undefined, routing, parent)).toBe(parent);
  });
});

describe("AGENTFOLD_MODEL_ALIASES", () => {
  it("parses comma-separated id=provider:model entries", () => {
    expect(parseEnv({ AGENTFOLD_MODEL_ALIASES: "grok-4.5=xai:grok-4, grok-4.7 = xai:grok-4" })).toMatchObject({
      AGENTFOLD_MODEL_ALIASES: { "grok-4.5": "xai:grok-4", "grok-4.7": "xai:grok-4" },
    });
    expect(parseEnv({}).AGENTFOLD_MODEL_ALIASES).toEqual({});
  });

  it("stops start-up naming the variable and the bad entry", () => {
    const issue = (value: string) => {
      try {
        parseEnv({ AGENTFOLD_MODEL_ALIASES: value });
      } catch (error) {
        return (error as EnvError).issues[0];
      }
      throw new Error("parsed");
    };
    expect(issue("grok-4.5")).toEqual({
      variable: "AGENTFOLD_MODEL_ALIASES",
      message: '"grok-4.5" must look like grok-4.5=xai:grok-4',
    });
    expect(issue("grok-4.5=gemini:pro")?.message).toBe(
      '"grok-4.5=gemini:pro": model gemini:pro has an unknown provider "gemini"; use one of: local, openai, anthropic, openai-compatible, xai',
    );
    expect(() => parseModelAliases("openai:gpt-5=xai:grok-4")).toThrow("already a provider:model id");
  });
});
