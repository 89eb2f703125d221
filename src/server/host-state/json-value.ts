// A kv value is checked before it is stored: JSON.stringify would quietly turn NaN into null,
// drop a function, or call a Date's toJSON, and Postgres's jsonb refuses NUL characters and lone
// surrogates with an error that names neither the key nor the place in the value.
import { AppError } from "@/server/errors";
import { unstorableProblem } from "@/server/validation/schema";

/** Nesting deeper than this is refused, long before the checks below or Postgres run out of stack. */
export const maxJsonDepth = 256;

/** The value as JSON text, or an invalid_input AppError naming where in it the problem is. */
export function serializeJsonValue(value: unknown, what: string): string {
  const problem = jsonProblem(value, "$", 0);
  if (problem) throw new AppError("invalid_input", `${what} is not JSON: ${problem}`);
  return JSON.stringify(value);
}

function jsonProblem(value: unknown, at: string, depth: number): string | undefined {
  if (depth > maxJsonDepth) return `${at} is nested deeper than ${maxJsonDepth} levels`;
  if (value === null || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${at} is ${value}`;
  if (typeof value === "string") return stringProblem(value, at);
  if (value === undefined) return `${at} is undefined (use null, or leave the field out)`;
  if (typeof value !== "object") return `${at} is a ${typeof value}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonProblem(value[i], `${at}[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return `${at} is a ${value.constructor?.name ?? "non-plain object"}, not a plain object`;
  }
  for (const [key, field] of Object.entries(value)) {
    const fieldAt = `${at}[${JSON.stringify(key)}]`;
    const problem = stringProblem(key, `the key of ${fieldAt}`);
    if (problem) return problem;
    // An undefined field is dropped, as JSON.stringify drops it: the SDK's JsonValue allows it.
    if (field === undefined) continue;
    const fieldProblem = jsonProblem(field, fieldAt, depth + 1);
    if (fieldProblem) return fieldProblem;
  }
  return undefined;
}

function stringProblem(text: string, at: string): string | undefined {
  const problem = unstorableProblem(text);
  return problem ? `${at} ${problem}` : undefined;
}
