// Eval runs as the API answers them (docs/evals.md): a run of some of an agent's evals on one
// version, and one result per case and iteration with every assertion it recorded.
import { z } from "zod";

export const evalSelectionSchema = z.strictObject({
  /** Case ids, or prefixes of them: `refunds` selects `refunds` and every `refunds/…`. */
  ids: z.array(z.string().min(1).max(500)).max(500).optional(),
  /** Cases of evals with any of these tags. */
  tags: z.array(z.string().min(1).max(100)).max(50).optional(),
  /** Runs each case this many times (a pass rate), instead of the eval's own `iterations`. */
  iterations: z.number().int().min(1).max(100).optional(),
});
export type EvalSelection = z.infer<typeof evalSelectionSchema>;

export const assertionKinds = ["succeeded", "calledTool", "notCalledTool", "check", "require", "judge"] as const;

export const evalAssertionSchema = z.object({
  kind: z.enum(assertionKinds),
  pass: z.boolean(),
  message: z.string(),
});
export type EvalAssertion = z.infer<typeof evalAssertionSchema>;

const tokens = z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() });

export const evalResultSchema = z.object({
  runId: z.string(),
  caseId: z.string(),
  /** 1-based. */
  iteration: z.number().int().positive(),
  status: z.enum(["pending", "running", "passed", "failed", "error"]),
  assertions: z.array(evalAssertionSchema),
  /** Why it could not run, what it threw, or the failed `require`. */
  error: z.string().nullable(),
  /** The eval sessions it ran (purpose "eval"), in order. */
  sessionIds: z.array(z.string()),
  tokens,
  costUsd: z.number().nonnegative(),
  durationMs: z.number().int().nonnegative().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type EvalResult = z.infer<typeof evalResultSchema>;

export const evalRunSchema = z.object({
  id: z.string(),
  versionId: z.string(),
  versionNumber: z.number().int().nullable(),
  /** passed: every result passed; failed: an assertion failed; error: a case could not run. */
  status: z.enum(["running", "passed", "failed", "error"]),
  /** Who started it: an email, a token's name, "the CLI". */
  startedBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  selection: evalSelectionSchema,
  counts: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    running: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    errored: z.number().int(),
  }),
  /** Passed over finished results; null before any finished. */
  passRate: z.number().min(0).max(1).nullable(),
  /** Per case id, over its iterations. */
  byCase: z.record(z.string(), z.object({ passed: z.number().int(), total: z.number().int() })),
  tokens,
  costUsd: z.number().nonnegative(),
  durationMs: z.number().int().nonnegative().nullable(),
});
export type EvalRun = z.infer<typeof evalRunSchema>;

export const evalListingSchema = z.object({
  maxConcurrency: z.number().int().positive(),
  evals: z.array(
    z.object({
      id: z.string(),
      file: z.string(),
      description: z.string().optional(),
      tags: z.array(z.string()),
      iterations: z.number().int().positive(),
      /** Full case ids: the eval's own id when it has no cases. */
      cases: z.array(z.string()),
      /** Each case's tags, its eval's and its own, by full case id. */
      caseTags: z.record(z.string(), z.array(z.string())),
    }),
  ),
});
export type EvalListing = z.infer<typeof evalListingSchema>;

/** A line of GET …/dev/evals/runs/:id/stream. */
export type EvalStreamLine = { type: "run"; run: EvalRun } | { type: "result"; result: EvalResult };
