// Parses the bracketed directives the offline `local:scripted` model understands (docs/models.md).
// Only known keywords count as directives; any other bracketed text, and a directive whose
// argument does not parse (e.g. `[delay soon]`), stays in the message as ordinary text.

export type ScriptedToolRequest = {
  directive: "call" | "subagent";
  toolName: string;
  input: unknown;
};

export type ScriptedDirectives = {
  /** The message with every directive removed and whitespace collapsed. */
  text: string;
  delayMs: number;
  failMessage?: string;
  requests: ScriptedToolRequest[];
  /** Problems with directives the model should mention in its reply (e.g. invalid JSON). */
  notes: string[];
  isReasoningOff: boolean;
  /** `[say: …]`: reply with exactly this text (possibly empty) instead of the echo. */
  say?: string;
};

// setTimeout overflows past 2^31 ms and fires at once; a cap also keeps a typo from parking a turn.
export const maxDelayMs = 10 * 60 * 1000;
export const defaultFailMessage = "scripted failure";

const keyword = /^(delay|fail|call|subagent|reason|say|remind)\b/i;

export function parseDirectives(message: string): ScriptedDirectives {
  const result: ScriptedDirectives = { text: "", delayMs: 0, requests: [], notes: [], isReasoningOff: false };
  let text = "";
  let index = 0;
  while (index < message.length) {
    const open = message.indexOf("[", index);
    if (open === -1) break;
    const close = keyword.test(message.slice(open + 1)) ? findClosing(message, open) : -1;
    const isDirective = close !== -1 && applyDirective(message.slice(open + 1, close).trim(), result);
    text += isDirective ? message.slice(index, open) + " " : message.slice(index, open + 1);
    index = isDirective ? close + 1 : open + 1;
  }
  text += message.slice(index);
  result.text = text.replace(/\s+/g, " ").trim();
  return result;
}

/** Index of the `]` closing the `[` at `open`, skipping nested brackets and JSON strings. */
function findClosing(message: string, open: number): number {
  let depth = 0;
  let braces = 0;
  let isInString = false;
  for (let i = open; i < message.length; i++) {
    const char = message[i];
    if (isInString) {
      if (char === "\\") i++;
      else if (char === '"') isInString = false;
      continue;
    }
    // Quotes only open strings inside JSON, so an apostrophe or a lone `"` in prose is harmless.
    if (char === '"' && braces > 0) isInString = true;
    else if (char === "{") braces++;
    else if (char === "}") braces--;
    else if (char === "[") depth++;
    else if (char === "]" && --depth === 0) return i;
  }
  return -1;
}

function applyDirective(body: string, result: ScriptedDirectives): boolean {
  let match = /^delay\s+(\d+(?:\.\d+)?)\s*(ms|s)?$/i.exec(body);
  if (match) {
    const amount = Number(match[1]) * (match[2]?.toLowerCase() === "s" ? 1000 : 1);
    result.delayMs = Math.min(maxDelayMs, result.delayMs + Math.round(amount));
    return true;
  }
  if ((match = /^fail\b\s*:?\s*([\s\S]*)$/i.exec(body))) {
    result.failMessage = match[1]?.trim() || defaultFailMessage;
    return true;
  }
  if ((match = /^call\s+([\w.:-]+)\s*([\s\S]*)$/i.exec(body))) {
    const toolName = match[1]!;
    try {
      result.requests.push({ directive: "call", toolName, input: JSON.parse(match[2] || "{}") });
    } catch {
      result.notes.push(`The input for ${toolName} is not valid JSON, so I did not call it.`);
    }
    return true;
  }
  if ((match = /^subagent\s+([\w.-]+)\s*([\s\S]*)$/i.exec(body))) {
    const input = { subagent: match[1]!, prompt: match[2]!.trim() };
    result.requests.push({ directive: "subagent", toolName: "task", input });
    return true;
  }
  if ((match = /^remind\s+(\S+?)\s*:\s*([\s\S]+)$/i.exec(body))) {
    result.requests.push({ directive: "call", toolName: "remind", input: { in: match[1]!, prompt: match[2]!.trim() } });
    return true;
  }
  if ((match = /^say\b\s*:?\s*([\s\S]*)$/i.exec(body))) {
    result.say = match[1]!.trim();
    return true;
  }
  if (/^reason\s+off$/i.test(body)) {
    result.isReasoningOff = true;
    return true;
  }
  return false;
}
