// Zod pieces every request schema shares, so bad input is a 400 before it reaches Postgres
// (docs/api.md#validation): text that text/jsonb columns can hold, integers that fit int4.
import { z } from "zod";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Postgres cannot store `value` as text or inside jsonb, or undefined when it can. */
export function unstorableProblem(value: string): string | undefined {
  if (value.includes("\0")) return "must not contain a NUL character (\\u0000)";
  if (loneSurrogate.test(value)) return "must not contain a lone UTF-16 surrogate";
  return undefined;
}

/** A string Postgres can store; chain `.min()`, `.max()`, `.regex()` as on `z.string()`. */
export function storableString() {
  return z.string().superRefine((value, ctx) => {
    const problem = unstorableProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

/** The largest value of a Postgres `integer`: event indexes and limits are compared with one. */
export const maxPgInteger = 2_147_483_647;

/** A whole-number query parameter in [min, max] (max at most `maxPgInteger`). */
export function queryInteger(options: { min: number; max?: number; default: number }) {
  const { min, max = maxPgInteger, default: fallback } = options;
  return z.coerce.number().int().min(min).max(Math.min(max, maxPgInteger)).default(fallback);
}

/** An id a caller chose or a provider made: visible ASCII (no spaces, no control characters). */
export function visibleAsciiId(what: string, maxLength = 200) {
  return z
    .string()
    .regex(new RegExp(`^[!-~]{1,${maxLength}}$`), `${what} must be 1-${maxLength} visible ASCII characters`);
}

/** A name in a path (a tool, schedule or reminder): looked up, so 404 when unknown. */
export const pathNameSchema = storableString().min(1).max(200);
