// `agentfold/evals`: defineEval and defineEvalConfig
// (docs/agent-folders.md, "The `define*` helpers"). An eval sends real messages to the agent and
// asserts on the trajectory; cases add one path segment to the eval's id.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import type { SessionEvent } from "./events";
import type { Matcher } from "./eval-assertions";
import { define, functionSchema, nonEmptyString } from "./validation";

export {
  includes,
  matches,
  satisfies,
  trajectoryChecks,
  type AssertionResult,
  type Matcher,
} from "./eval-assertions";

/** [inferred] Options of `t.send`. */
export type EvalSendOptions = { title?: string; workspaceFiles?: Record<string, string>; dryRun?: boolean };

/** [inferred] What `t.send` resolves to; a second send follows up in the same session. */
export type EvalTurn = { sessionId: string; reply: string; events: readonly SessionEvent[] };

/** The assertion helper an eval's test receives. */
export type EvalT = {
  send(message: string, options?: EvalSendOptions): Promise<EvalTurn>;
  succeeded(): void;
  calledTool(name: string): void;
  notCalledTool(name: string): void;
  /** The final assistant text of the last turn. */
  readonly reply: string;
  check(value: unknown, matcher: Matcher): void;
  /** [inferred] Like check, but stops the test when it fails. */
  require(value: unknown, matcher: Matcher): void;
  /** [inferred] LLM-graded rubric. */
  judge(value: unknown, rubric: string): Promise<void>;
  /** [inferred] The raw trajectory so far. */
  readonly events: readonly SessionEvent[];
};

export type EvalTest = (t: EvalT) => void | Promise<void>;
export type EvalCase = { id: string; description?: string; tags?: string[]; test: EvalTest };

/** `timeoutMs`: [inferred] how long one case may take (all its turns), 5 minutes by default. */
type EvalCommon = { description?: string; tags?: string[]; iterations?: number; timeoutMs?: number };
export type EvalConfig = EvalCommon & ({ test: EvalTest; cases?: undefined } | { cases: EvalCase[]; test?: undefined });
export type EvalDescriptor = Descriptor<"eval", EvalConfig & { tags: string[]; iterations: number }>;

function caseIdProblem(id: string): string | undefined {
  if (id === "" || id === "." || id === "..") return "must be a non-empty path segment";
  return /[/\\]/.test(id) ? "must be a single path segment (no slashes)" : undefined;
}

const caseSchema = z.strictObject({
  id: z.string().superRefine((id, ctx) => {
    const problem = caseIdProblem(id);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  description: z.string().optional(),
  tags: z.array(nonEmptyString).optional(),
  test: functionSchema,
});

const evalConfigSchema = z
  .strictObject({
    description: z.string().optional(),
    tags: z.array(nonEmptyString).default([]),
    iterations: z.number().int().positive("must be a positive integer").default(1),
    timeoutMs: z.number().int().positive().max(3_600_000, "at most an hour").optional(),
    test: functionSchema.optional(),
    cases: z.array(caseSchema).min(1, "must list at least one case").optional(),
  })
  .superRefine((config, ctx) => {
    if (config.test && config.cases) ctx.addIssue({ code: "custom", message: "give test or cases, not both" });
    if (!config.test && !config.cases) ctx.addIssue({ code: "custom", message: "give test or cases" });
    const seen = new Set<string>();
    config.cases?.forEach(({ id }, index) => {
      const message = `duplicate case id "${id}"`;
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: ["cases", index, "id"], message });
      seen.add(id);
    });
  });

export function defineEval(config: EvalConfig): EvalDescriptor {
  return define("eval", "defineEval", evalConfigSchema, config);
}

export type EvalConfigFile = { maxConcurrency?: number };
export type EvalConfigDescriptor = Descriptor<"eval-config", { maxConcurrency: number }>;

/** [inferred] default: 4 cases at once, since turns wait on the model rather than the CPU. */
export const defaultEvalConcurrency = 4;

const evalConfigFileSchema = z.strictObject({
  maxConcurrency: z.number().int().positive("must be a positive integer").default(defaultEvalConcurrency),
});

export function defineEvalConfig(config: EvalConfigFile = {}): EvalConfigDescriptor {
  return define("eval-config", "defineEvalConfig", evalConfigFileSchema, config);
}
