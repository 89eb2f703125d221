// `agentfold/tools`: defineTool (docs/agent-folders.md, "The `define*` helpers"). The filename is
// the tool's name; this module only checks and normalizes the definition.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import type { ToolContext } from "./tool-context";
import type { ToolReturn } from "./tool-result";
import { toolSchemaProblem, type ToolInputOf, type ToolSchema } from "./tool-schemas";
import { anySchemaSchema, define, functionSchema, nonEmptyString } from "./validation";

export type { SessionArtifactsApi, ToolContext, ToolSession } from "./tool-context";
export {
  isToolExecuteResult,
  toolResultEnvelope,
  type ToolContentPart,
  type ToolExecuteResult,
  type ToolReturn,
} from "./tool-result";
export {
  parseToolInput,
  ToolInputError,
  toolJsonSchemas,
  type JSONSchema,
  type ToolInputOf,
  type ToolSchema,
} from "./tool-schemas";

export type ToolExecution = "server" | "agent";
export type ToolEffect = "read" | "write";
export type NeedsApproval<I> = boolean | ((input: I, ctx: ToolContext) => boolean | Promise<boolean>);

/** The per-call sandbox timeout cannot exceed this. */
export const maxToolTimeoutMs = 15 * 60_000;

export type ToolConfig<S extends ToolSchema | undefined, R extends ToolReturn> = {
  /** What the model reads. */
  description: string;
  inputSchema?: S;
  outputSchema?: ToolSchema;
  execute: (input: ToolInputOf<S>, ctx: ToolContext) => R | Promise<R>;
  /** "host" is the older name of "server" and is read as it. */
  execution?: ToolExecution | "host";
  /** Reads run beside a busy turn, run for real in dry-run and are retried; writes do none of
   * that. Left out means "write", the safe choice. */
  effect?: ToolEffect;
  needsApproval?: NeedsApproval<ToolInputOf<S>>;
  /** Per-call timeout in the sandbox. */
  timeoutMs?: number;
  /** What a write tool answers in dry-run sessions instead of running: a value, or a function of
   * the input (it runs in the sandbox like `execute`, and should change nothing). */
  dryRunResult?: R | ((input: ToolInputOf<S>, ctx: ToolContext) => R | Promise<R>);
};

export type ToolDefinition<S extends ToolSchema | undefined, R extends ToolReturn> = Omit<
  ToolConfig<S, R>,
  "execution" | "effect" | "needsApproval"
> & {
  execution: ToolExecution;
  effect: ToolEffect;
  needsApproval: NeedsApproval<ToolInputOf<S>>;
};

export type ToolDescriptor<
  S extends ToolSchema | undefined = ToolSchema | undefined,
  R extends ToolReturn = ToolReturn,
> = Descriptor<"tool", ToolDefinition<S, R>>;

const usableSchema = (io: "input" | "output") =>
  anySchemaSchema.superRefine((schema, ctx) => {
    const problem = toolSchemaProblem(schema, io);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const toolConfigSchema = z.strictObject({
  description: nonEmptyString,
  inputSchema: usableSchema("input").optional(),
  outputSchema: usableSchema("output").optional(),
  execute: functionSchema,
  execution: z
    .enum(["server", "agent", "host"], { error: 'expected "server" or "agent"' })
    .default("server")
    .transform((value) => (value === "host" ? "server" : value)),
  effect: z.enum(["read", "write"], { error: 'expected "read" or "write"' }).default("write"),
  needsApproval: z
    .custom<NeedsApproval<unknown>>((value) => typeof value === "boolean" || typeof value === "function", {
      error: "expected a boolean or a function",
    })
    .default(false),
  timeoutMs: z
    .number()
    .int("must be a whole number of milliseconds")
    .positive("must be positive")
    .max(maxToolTimeoutMs, "must be at most 900000 (15 minutes)")
    .optional(),
  dryRunResult: z.unknown().optional(),
});

export function defineTool<S extends ToolSchema | undefined = undefined, R extends ToolReturn = ToolReturn>(
  config: ToolConfig<S, R>,
): ToolDescriptor<S, R> {
  return define("tool", "defineTool", toolConfigSchema, config);
}
