// `agentfold/result`: defineResult (docs/turns.md, "Result contract"), the contract on a turn's
// final assistant text. `commit` acts on the text and may throw (→ turn.failed);
// `ctx.reject(message)` re-runs the same turn with feedback, at most `maxResultRepairs` times.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import type { HostServices } from "./host";
import type { SessionArtifactsApi } from "./tool-context";
import type { HandlerSession } from "./types";
import { define, formatPath, functionSchema, zodSchemaSchema } from "./validation";

export const maxResultRepairs = 2;

/** What `ctx.reject` throws; the runtime turns it into a repair round. */
export class ResultRejection extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResultRejection";
  }
}

type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export type ResultContext<Value = undefined> = {
  /** Re-run the turn with `message` as feedback (throws ResultRejection). */
  reject(message: string): never;
  /** [inferred] The text parsed by `schema`; undefined without one. */
  value: Value;
  session: HandlerSession;
  host: HostServices;
  artifacts: SessionArtifactsApi;
};

export type ResultConfig<S extends z.core.$ZodType | undefined> = {
  /** [inferred] The final text must be JSON matching this schema; a mismatch is rejected with
   * the problems as feedback. */
  schema?: S;
  /** Its return value, when not undefined, becomes `turn.completed.data.result`. */
  commit?: (text: string, ctx: ResultContext<Parsed<S>>) => unknown;
};

type Schema = z.core.$ZodType | undefined;

export type ResultDescriptor<S extends Schema = Schema> = Descriptor<"result", ResultConfig<S>>;

const resultConfigSchema = z
  .strictObject({ schema: zodSchemaSchema.optional(), commit: functionSchema.optional() })
  .refine((config) => config.schema !== undefined || config.commit !== undefined, {
    error: "give commit, schema, or both",
  });

export function defineResult<S extends Schema = undefined>(config: ResultConfig<S>): ResultDescriptor<S> {
  return define("result", "defineResult", resultConfigSchema, config);
}

export type ResultCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** The checks that need no handler: empty text fails; with a schema, the text (bare JSON or
 * one fenced ```json block) must parse and match. A failure's message is the repair feedback. */
export function checkResultText(result: { schema?: z.core.$ZodType }, text: string): ResultCheck {
  if (text.trim() === "") return { ok: false, message: "the reply is empty" };
  if (!result.schema) return { ok: true, value: undefined };
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text.trim());
  let json: unknown;
  try {
    json = JSON.parse(fenced?.[1] ?? text);
  } catch {
    return { ok: false, message: "the reply must be JSON matching the result schema" };
  }
  const parsed = z.safeParse(result.schema, json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path) || "(root)"}: ${issue.message}`);
  return { ok: false, message: `the reply does not match the result schema: ${problems.join("; ")}` };
}
