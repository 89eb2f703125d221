import { describe, expect, it } from "vitest";
import { modelCost } from "./prices";

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe("modelCost", () => {
  it("prices input and output per million tokens", () => {
    expect(modelCost("openai:gpt-5", usage(1_000_000, 100_000))).toEqual({ totalUsd: 2.25, model: "openai:gpt-5" });
    expect(modelCost("anthropic:claude-sonnet-4-5", usage(2000, 500))).toEqual({
      totalUsd: 0.0135,
      model: "anthropic:claude-sonnet-4-5",
    });
  });

  it("bills cached tokens at their own rates; input counts include them", () => {
    // 10k input of which 6k cache reads and 2k cache writes: 2k uncached.
    const cost = modelCost("anthropic:claude-haiku-4-5", usage(10_000, 1000, 6000, 2000));
    expect(cost?.totalUsd).toBeCloseTo((2000 * 1 + 6000 * 0.1 + 2000 * 1.25 + 1000 * 5) / 1e6, 10);
    // OpenAI publishes no cache-write price: those tokens cost ordinary input.
    expect(modelCost("openai:gpt-5-mini", usage(1000, 0, 0, 1000))?.totalUsd).toBeCloseTo(0.00025, 10);
  });

  it("prices dated snapshots like their alias and keeps the id it was given", () => {
    expect(modelCost("anthropic:claude-sonnet-4-5-20250929", usage(1_000_000, 0))).toEqual({
      totalUsd: 3,
      model: "anthropic:claude-sonnet-4-5-20250929",
    });
    expect(modelCost("openai:gpt-4o-mini-2024-07-18", usage(1_000_000, 0))?.totalUsd).toBe(0.15);
  });

  it("costs nothing offline and gives no cost for models without a known price", () => {
    expect(modelCost("local:scripted", usage(500, 500))).toEqual({ totalUsd: 0, model: "local:scripted" });
    expect(modelCost("openai-compatible:llama3", usage(500, 500))).toBeUndefined();
    expect(modelCost("openai:gpt-5-turbo-ultra", usage(500, 500))).toBeUndefined();
    expect(modelCost("anthropic:claude-sonnet-4-5-preview", usage(500, 500))).toBeUndefined();
  });
});
