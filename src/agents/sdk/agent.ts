// defineAgent and defineInstructions (docs/agent-folders.md, "The `define*` helpers"), exported
// from the package root.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import { define, nonEmptyString } from "./validation";

export type ModelParam = { id: string; value: string | number | boolean };
export type ModelConfig = string | { id: string; params?: ModelParam[] };
export type AgentRuntime = "local" | "cloud";

export type AgentConfig = {
  /** `provider:model`, or a bare id the platform maps; subagents leave it out to inherit. */
  model?: ModelConfig;
  /** Display name; the package name stays the agent's identity. */
  name?: string;
  /** Required on subagents: the rule the parent reads when it delegates. */
  description?: string;
  /** Inline instructions, mainly for subagents. */
  instructions?: string;
  local?: { cwd?: string; workspaceDir?: string; sandbox?: boolean | Record<string, unknown> };
  persistent?: boolean;
  hosting?: { egressDomains?: string[]; secretNames?: string[]; image?: string };
  concurrency?: { maxRunningTurns?: number };
  /** Allowlist of built-in harness tools; "mcp" is always added. */
  tools?: string[];
  runtime?: AgentRuntime;
  /** [inferred] Cloud-runtime options, kept as given. */
  cloud?: Record<string, unknown>;
  /** Cursor's hosted agent architecture: accepted, and ignored on Agentfold. */
  architecture?: unknown;
};

export type AgentDescriptor = Descriptor<
  "agent",
  Omit<AgentConfig, "persistent" | "runtime"> & { persistent: boolean; runtime: AgentRuntime }
>;

// A parameter baked into the id ("grok-4.5-fast") hides it from the params list the platform
// reads, so it is refused with the spelling that works.
const parameterSuffixes = new Set(["fast", "thinking", "minimal", "low", "medium", "high", "xhigh", "max"]);

const modelId = nonEmptyString.superRefine((id, ctx) => {
  const suffix = id.slice(id.lastIndexOf("-") + 1).toLowerCase();
  if (!id.includes("-") || !parameterSuffixes.has(suffix)) return;
  const base = id.slice(0, id.lastIndexOf("-"));
  ctx.addIssue({
    code: "custom",
    message:
      `"${id}" puts a parameter in the model id; ` +
      `use { id: "${base}", params: [{ id: "${suffix}", value: true }] }`,
  });
});

const paramValue = z.union([z.string(), z.number(), z.boolean()], {
  error: "expected a string, number or boolean",
});

const modelSchema = z.union(
  [
    modelId,
    z.strictObject({
      id: modelId,
      params: z.array(z.strictObject({ id: nonEmptyString, value: paramValue })).optional(),
    }),
  ],
  { error: "expected a model id or { id, params }" },
);

const runtimeSchema = z
  .string()
  .superRefine((runtime, ctx) => {
    if (runtime === "local" || runtime === "cloud") return;
    const message =
      runtime === "grokbot"
        ? 'runtime "grokbot" is private to Cursor and not supported; use "local"'
        : 'expected "local" or "cloud"';
    ctx.addIssue({ code: "custom", message });
  })
  .default("local");

const hostName = /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
/** An environment variable name: what a secret may be called (hosting.secretNames, the secret store). */
export const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

const agentConfigSchema = z.strictObject({
  model: modelSchema.optional(),
  name: nonEmptyString.optional(),
  description: nonEmptyString.optional(),
  instructions: nonEmptyString.optional(),
  local: z
    .strictObject({
      cwd: nonEmptyString.optional(),
      workspaceDir: nonEmptyString.optional(),
      sandbox: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
    })
    .optional(),
  persistent: z.boolean().default(false),
  hosting: z
    .strictObject({
      egressDomains: z.array(z.string().regex(hostName, "expected a host name")).optional(),
      secretNames: z.array(z.string().regex(envName, "expected an env variable name")).optional(),
      image: nonEmptyString.optional(),
    })
    .optional(),
  concurrency: z
    .strictObject({ maxRunningTurns: z.number().int().positive("must be a positive integer").optional() })
    .optional(),
  tools: z
    .array(nonEmptyString)
    .transform((tools) => (tools.includes("mcp") ? tools : [...tools, "mcp"]))
    .optional(),
  runtime: runtimeSchema,
  cloud: z.record(z.string(), z.unknown()).optional(),
  // Cursor's hosted agent architecture: accepted, ignored here (validate says so).
  architecture: z.unknown().optional(),
});

export function defineAgent(config: AgentConfig = {}): AgentDescriptor {
  return define("agent", "defineAgent", agentConfigSchema, config);
}

export type InstructionsConfig = { markdown: string };
export type InstructionsDescriptor = Descriptor<"instructions", InstructionsConfig>;

const instructionsSchema = z.strictObject({ markdown: nonEmptyString });

export function defineInstructions(config: InstructionsConfig): InstructionsDescriptor {
  return define("instructions", "defineInstructions", instructionsSchema, config);
}
