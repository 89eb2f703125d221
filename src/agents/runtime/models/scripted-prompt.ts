// Reads what `local:scripted` needs from a V3 prompt: the last user message, the tool results it
// must report, and a flat text to count input "tokens" from.
import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";

const maxResultChars = 400;

export function lastUserText(prompt: LanguageModelV3Prompt): string {
  const message = prompt.findLast((candidate) => candidate.role === "user");
  if (!message) return "";
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** One sentence per tool result in the trailing tool message. */
export function describeToolResults(prompt: LanguageModelV3Prompt): string {
  const message = prompt.at(-1);
  if (message?.role !== "tool") return "";
  const sentences = message.content.flatMap((part) =>
    part.type === "tool-result" ? [describeOutput(part.toolName, part.output)] : [],
  );
  return sentences.length > 0 ? sentences.join(" ") : "The tools returned nothing.";
}

function describeOutput(toolName: string, output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
      return `The ${toolName} tool returned: ${clip(output.value)}.`;
    case "json":
      return `The ${toolName} tool returned: ${clip(JSON.stringify(output.value))}.`;
    case "error-text":
      return `The ${toolName} tool failed: ${clip(output.value)}.`;
    case "error-json":
      return `The ${toolName} tool failed: ${clip(JSON.stringify(output.value))}.`;
    case "execution-denied":
      return `The ${toolName} call was denied${output.reason ? `: ${clip(output.reason)}` : ""}.`;
    case "content": {
      const text = output.value.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
      return `The ${toolName} tool returned: ${clip(text || "(no text)")}.`;
    }
    default:
      return `The ${toolName} tool answered.`;
  }
}

function clip(text: string): string {
  return text.length > maxResultChars ? `${text.slice(0, maxResultChars)}…` : text;
}

export function promptText(prompt: LanguageModelV3Prompt): string {
  return prompt
    .flatMap((message) => {
      if (message.role === "system") return [message.content];
      return message.content.map((part) => {
        if (part.type === "text" || part.type === "reasoning") return part.text;
        if (part.type === "tool-call") return JSON.stringify(part.input);
        if (part.type === "tool-result") return JSON.stringify(part.output);
        return "";
      });
    })
    .join(" ");
}
