// The built-in offline model `local:scripted`: a real LanguageModelV3, deterministic and instant,
// so every feature can be demonstrated and tested with no network and no key. What it answers is
// decided in scripted-reply.ts; the directives it obeys are listed in docs/models.md.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { structuredReply } from "./scripted-json";
import { toContent, toStreamParts } from "./scripted-parts";
import { planReply, type ScriptedReply } from "./scripted-reply";

export const localScriptedModelId = "local:scripted";

export class ScriptedFailureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptedFailureError";
  }
}

export function createLocalScriptedModel(options: { chunkDelayMs?: number } = {}): LanguageModelV3 {
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  return {
    specificationVersion: "v3",
    provider: "local",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate(callOptions) {
      const reply = await prepare(callOptions);
      const { finishReason, usage } = reply;
      return {
        content: toContent(reply),
        finishReason: { unified: finishReason, raw: finishReason },
        usage,
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const reply = await prepare(callOptions);
      return { stream: partStream(toStreamParts(reply), chunkDelayMs, callOptions.abortSignal) };
    },
  };
}

/** Plans the reply, waits out `[delay]` and throws for `[fail]`, as a provider's request would. */
async function prepare(options: LanguageModelV3CallOptions): Promise<ScriptedReply> {
  const reply = structuredReply(options, planReply(options));
  await sleep(reply.delayMs, options.abortSignal);
  if (reply.failMessage !== undefined) throw new ScriptedFailureError(reply.failMessage);
  return reply;
}

function partStream(
  parts: LanguageModelV3StreamPart[],
  chunkDelayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      // The first part goes out at once; later ones are paced only when a chunk delay is set.
      if (index > 0) await sleep(chunkDelayMs, signal);
      const part = parts[index++];
      if (part) controller.enqueue(part);
      if (index >= parts.length) controller.close();
    },
  });
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
