// Decides what `local:scripted` answers to one call, as plain data: the model and its tests both
// read it. Everything here is a pure function of the prompt and the offered tools.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { createHash } from "node:crypto";
import { parseDirectives, type ScriptedToolRequest } from "./scripted-directives";
import { describeToolResults, lastUserText, promptText } from "./scripted-prompt";

export type ScriptedReply = {
  reasoning?: string;
  text?: string;
  toolCalls: LanguageModelV3ToolCall[];
  finishReason: "stop" | "tool-calls";
  usage: LanguageModelV3Usage;
  delayMs: number;
  failMessage?: string;
};

export const offlineNotice = "I am the offline scripted model; configure a provider for real answers.";

export function planReply(options: LanguageModelV3CallOptions): ScriptedReply {
  const { prompt } = options;
  const directives = parseDirectives(lastUserText(prompt));
  const base = { delayMs: directives.delayMs, failMessage: directives.failMessage };
  const withReasoning = (reasoning: string) => (directives.isReasoningOff ? undefined : reasoning);

  // After tool results the model reports them instead of re-reading the user's directives,
  // so a `[call …]` turn ends after one round of tools rather than looping.
  if (prompt.at(-1)?.role === "tool") {
    const text = describeToolResults(prompt);
    const reasoning = withReasoning("The tools have answered. I will report what they returned.");
    return { ...base, reasoning, text, toolCalls: [], finishReason: "stop", usage: usage(prompt, reasoning, text) };
  }

  const offered = new Set(options.toolChoice?.type === "none" ? [] : (options.tools ?? []).map((tool) => tool.name));
  const accepted = directives.requests.filter((request) => offered.has(request.toolName));
  const notes = [
    ...directives.notes,
    ...directives.requests.filter((request) => !offered.has(request.toolName)).map(missingToolNote),
  ];
  const previousCalls = prompt.flatMap((message) =>
    message.role === "assistant" ? message.content.filter((part) => part.type === "tool-call") : [],
  ).length;
  // Ids count on from the calls already in the conversation and carry a digest of what was said,
  // so they differ between turns and from a subagent's: unique, and the same on a replay.
  const conversation = conversationDigest(prompt);
  const toolCalls: LanguageModelV3ToolCall[] = accepted.map((request, i) => ({
    type: "tool-call",
    toolCallId: `call_${conversation}_${previousCalls + i + 1}`,
    toolName: request.toolName,
    input: JSON.stringify(request.input),
  }));

  const names = [...new Set(accepted.map((request) => request.toolName))];
  const reasoning = withReasoning(
    names.length > 0
      ? `The user asked for ${names.join(" and ")}. I will call ${names.length > 1 ? "them" : "it"} and wait for the result.`
      : `The user wrote ${countWords(directives.text)} words. I have no real model behind me, so I will echo them.`,
  );
  const lead = names.length > 0 ? `Calling ${names.join(", ")}.` : (directives.say ?? echo(directives.text));
  const text = [lead, ...notes].filter(Boolean).join(" ");
  const finishReason = toolCalls.length > 0 ? "tool-calls" : "stop";
  return { ...base, reasoning, text, toolCalls, finishReason, usage: usage(prompt, reasoning, text, toolCalls) };
}

/** A digest of the system prompt and every user message: differs between turns and between a
 * subagent and its parent, stays the same across the steps (and replays) of one turn. */
function conversationDigest(prompt: LanguageModelV3Prompt): string {
  const said = prompt.map((message) =>
    message.role === "system" ? message.content : message.role === "user" ? message.content : "",
  );
  return createHash("sha256").update(JSON.stringify(said)).digest("hex").slice(0, 8);
}

function echo(text: string): string {
  return text ? `You said: "${text}". ${offlineNotice}` : offlineNotice;
}

function missingToolNote(request: ScriptedToolRequest): string {
  if (request.directive === "call") return `There is no tool named ${request.toolName}, so I cannot call it.`;
  const { subagent } = request.input as { subagent: string };
  return `I cannot delegate to ${subagent}: no task tool is available to this agent.`;
}

export function countWords(text: string | undefined): number {
  return text ? text.split(/\s+/).filter(Boolean).length : 0;
}

// Tokens are words: deterministic, and close enough to show where usage and cost appear.
function usage(
  prompt: LanguageModelV3Prompt,
  reasoning: string | undefined,
  text: string | undefined,
  toolCalls: LanguageModelV3ToolCall[] = [],
): LanguageModelV3Usage {
  const input = countWords(promptText(prompt));
  const reasoningTokens = countWords(reasoning);
  const textTokens = countWords(text) + toolCalls.reduce((sum, call) => sum + countWords(call.input), 0);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: textTokens + reasoningTokens, text: textTokens, reasoning: reasoningTokens },
  };
}
