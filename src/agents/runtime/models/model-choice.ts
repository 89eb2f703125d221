// What an agent's `model` runs on here (docs/models.md, "Cursor's model ids"): a `provider:model` id
// as written, a bare Cursor id through the instance's alias table, else the default model, and its
// `params` as the provider options of providers that take them. Whatever differs from what the folder
// asked for comes back as notes: validate shows them as warnings, session.started carries them.
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import { modelIdProblem, parseModelId } from "./resolve-model";

export type ModelParam = { id: string; value: string | number | boolean };

/** The instance's side: AGENTFOLD_DEFAULT_MODEL and AGENTFOLD_MODEL_ALIASES (src/env.ts). */
export type ModelRouting = {
  defaultModel: string;
  aliases?: Record<string, string>;
  /** What the fallback is called in notes: "the default model" unless said (a subagent's parent's). */
  fallbackName?: string;
};

export type ModelChoice = {
  /** The `provider:model` id turns run on. */
  id: string;
  /** The params the provider takes, as its provider options; absent when none apply. */
  providerOptions?: SharedV3ProviderOptions;
  /** Why the choice is not exactly what the folder wrote, one sentence each. */
  notes: string[];
};

type ParamMapping = (value: ModelParam["value"]) => Record<string, string> | undefined;

const effortOf =
  (option: string, levels?: readonly string[]): ParamMapping =>
  (value) =>
    typeof value === "string" && (!levels || levels.includes(value)) ? { [option]: value } : undefined;

// The provider options each provider takes for Cursor's params; `context` and the rest map to none.
const paramMappings: Record<string, Record<string, ParamMapping>> = {
  openai: { effort: effortOf("reasoningEffort", ["none", "minimal", "low", "medium", "high", "xhigh"]) },
  anthropic: {
    effort: effortOf("effort", ["low", "medium", "high", "xhigh", "max"]),
    fast: (value) => (value === true ? { speed: "fast" } : value === false ? { speed: "standard" } : undefined),
  },
  xai: { effort: effortOf("reasoningEffort", ["none", "low", "medium", "high", "xhigh"]) },
  "openai-compatible": { effort: effortOf("reasoningEffort") },
};

/** The id and params a `model` setting names (a string, or `{ id, params }`); undefined for none. */
export function modelSetting(configured: unknown): { id: string; params: ModelParam[] } | undefined {
  if (typeof configured === "string") return { id: configured, params: [] };
  const object = configured as { id?: unknown; params?: unknown } | undefined;
  if (typeof object?.id !== "string") return undefined;
  return { id: object.id, params: Array.isArray(object.params) ? (object.params as ModelParam[]) : [] };
}

/** `inherited`: a subagent without a model of its own runs on its parent's choice. */
export function chooseModel(configured: unknown, routing: ModelRouting, inherited?: ModelChoice): ModelChoice {
  const setting = modelSetting(configured);
  if (!setting) return inherited ?? { id: routing.defaultModel, notes: [] };
  const notes: string[] = [];
  let id = setting.id;
  if (!id.includes(":")) {
    const alias = routing.aliases?.[id];
    if (alias) id = alias;
    else {
      notes.push(
        `model "${id}" is not a provider:model id and AGENTFOLD_MODEL_ALIASES has no alias for it: turns run on ${routing.fallbackName ?? "the default model"} ${routing.defaultModel} (docs/models.md, "Cursor's model ids")`,
      );
      id = routing.defaultModel;
    }
  }
  const { providerOptions, ignored } = paramOptions(id, setting.params);
  return { id, ...(providerOptions ? { providerOptions } : {}), notes: [...notes, ...ignored] };
}

function paramOptions(id: string, params: ModelParam[]) {
  const ignored: string[] = [];
  let provider: string;
  try {
    provider = parseModelId(id).provider;
  } catch {
    return { ignored };
  }
  const mappings = paramMappings[provider] ?? {};
  const options: Record<string, string> = {};
  for (const param of params) {
    const mapped = mappings[param.id]?.(param.value);
    if (mapped) Object.assign(options, mapped);
    else ignored.push(ignoredParam(id, param, Object.keys(mappings)));
  }
  // The AI SDK reads an OpenAI-compatible provider's options under its camel-cased name.
  const key = provider === "openai-compatible" ? "openaiCompatible" : provider;
  const providerOptions = Object.keys(options).length > 0 ? { [key]: options } : undefined;
  return { providerOptions, ignored };
}

function ignoredParam(id: string, param: ModelParam, taken: string[]): string {
  const value = JSON.stringify(param.value);
  if (taken.includes(param.id)) return `model param ${param.id}=${value} is ignored: ${id} does not take that value`;
  const takes = taken.length > 0 ? `it takes ${taken.join(", ")}` : "it takes no params";
  return `model param ${param.id}=${value} is ignored on ${id}: ${takes} (docs/models.md, "Params")`;
}

/** AGENTFOLD_MODEL_ALIASES: `<cursor id>=<provider:model>`, comma-separated. Throws naming the bad entry. */
export function parseModelAliases(value: string): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf("=");
    const [from, to] = [entry.slice(0, equals).trim(), entry.slice(equals + 1).trim()];
    if (equals <= 0 || !to) throw new Error(`"${entry}" must look like grok-4.5=xai:grok-4`);
    if (from.includes(":")) throw new Error(`"${from}" is already a provider:model id; alias only Cursor's bare ids`);
    const problem = modelIdProblem(to);
    if (problem) throw new Error(`"${entry}": ${problem}`);
    aliases[from] = to;
  }
  return aliases;
}
