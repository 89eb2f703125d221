// What a turn cost, for `turn.completed.data.cost`. The spec reports cost only when the price is
// known, so an unknown model gets no cost rather than a guess.
import { localScriptedModelId } from "./local-scripted";

/** A turn's token counts, as in `turn.completed.data.usage`. `inputTokens` includes cached tokens. */
export type TokenUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens?: number;
};

export type ModelCost = { totalUsd: number; model: string };

/** USD per million tokens. A missing cache price bills those tokens as ordinary input. */
type Price = { input: number; output: number; cacheRead?: number; cacheWrite?: number };

// Our own table, not the vendors': standard-tier list prices from their pricing pages, written in
// November 2026. Batch, priority and long-context (> 200K / 270K tokens) rates are not modelled,
// and reasoning tokens are billed as output, as both vendors do. Check before relying on it.
const prices: Record<string, Price> = {
  [localScriptedModelId]: { input: 0, output: 0 },
  "openai:gpt-5.5": { input: 5, cacheRead: 0.5, output: 30 },
  "openai:gpt-5.4": { input: 2.5, cacheRead: 0.25, output: 15 },
  "openai:gpt-5.4-mini": { input: 0.75, cacheRead: 0.075, output: 4.5 },
  "openai:gpt-5": { input: 1.25, cacheRead: 0.125, output: 10 },
  "openai:gpt-5-mini": { input: 0.25, cacheRead: 0.025, output: 2 },
  "openai:gpt-4o-mini": { input: 0.15, cacheRead: 0.075, output: 0.6 },
  "anthropic:claude-opus-5": { input: 5, cacheWrite: 6.25, cacheRead: 0.5, output: 25 },
  "anthropic:claude-sonnet-5": { input: 2, cacheWrite: 2.5, cacheRead: 0.2, output: 10 },
  "anthropic:claude-opus-4-5": { input: 5, cacheWrite: 6.25, cacheRead: 0.5, output: 25 },
  "anthropic:claude-sonnet-4-5": { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 },
  "anthropic:claude-haiku-4-5": { input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 },
};

export function modelCost(modelId: string, usage: TokenUsage): ModelCost | undefined {
  const price = priceOf(modelId);
  if (!price) return undefined;
  const cacheRead = usage.cacheReadTokens;
  const cacheWrite = usage.cacheWriteTokens;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const micro =
    uncached * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return { totalUsd: roundUsd(micro / 1_000_000), model: modelId };
}

/** Dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-4o-mini-2024-07-18`) cost what their alias costs. */
function priceOf(modelId: string): Price | undefined {
  return prices[modelId] ?? prices[modelId.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, "")];
}

// Float sums drift in the 16th digit; a millionth of a cent is far below any bill.
function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}
