// The parts every define* validator shares: schema pieces for functions, zod schemas and JSON
// Schema objects, and the step that turns zod issues into DefinitionError lines an author can
// act on ("defineTool: inputSchema: expected a zod schema or a JSON Schema object").
import { z } from "zod";
import { brand, DefinitionError, type DefinitionIssue, type Descriptor, type DescriptorKind } from "./descriptor";

export type AnyFunction = (...args: never[]) => unknown;

export function isZodSchema(value: unknown): value is z.core.$ZodType {
  if (typeof value !== "object" || value === null || !("_zod" in value)) return false;
  const internals = (value as { _zod: unknown })._zod;
  return typeof internals === "object" && internals !== null && "def" in internals;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  // Realm-independent: a literal made in another vm context has that context's Object.prototype.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A plain JSON object that can serve as a JSON Schema (anything else, e.g. a zod 3 or valibot
 * schema, is rejected rather than forwarded to the model as garbage). */
export function isJsonSchemaObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !isZodSchema(value) && z.json().safeParse(value).success;
}

const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : message;

export const functionSchema = z.custom<AnyFunction>((value) => typeof value === "function", {
  error: requiredOr("expected a function"),
});

export const zodSchemaSchema = z.custom<z.core.$ZodType>(isZodSchema, {
  error: requiredOr("expected a zod schema"),
});

export const anySchemaSchema = z.custom<z.core.$ZodType | Record<string, unknown>>(
  (value) => isZodSchema(value) || isJsonSchemaObject(value),
  { error: requiredOr("expected a zod schema or a JSON Schema object") },
);

export const nonEmptyString = z.string().refine((value) => value.trim() !== "", { error: "must not be empty" });

/** Parses a config and brands it, or throws DefinitionError naming every bad field. */
export function define<K extends DescriptorKind, C extends object>(
  kind: K,
  helper: string,
  schema: z.ZodType,
  config: unknown,
): Descriptor<K, C> {
  return brand(kind, parseConfig(helper, schema, config) as C);
}

export function parseConfig(helper: string, schema: z.ZodType, config: unknown): unknown {
  if (!isPlainObject(config)) {
    const message = `expected a config object, got ${describeValue(config)}`;
    throw new DefinitionError(helper, [{ path: "", message }]);
  }
  const result = schema.safeParse(config, { error: issueMessage });
  if (result.success) return result.data;
  throw new DefinitionError(helper, result.error.issues.flatMap(toDefinitionIssues));
}

function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  if (issue.input === undefined) return "is required";
  return `expected ${issue.expected}, got ${describeValue(issue.input)}`;
}

function toDefinitionIssues(issue: z.core.$ZodIssue): DefinitionIssue[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: "unknown field" }));
  }
  if (issue.code === "invalid_key") {
    // A record key failed its own schema: its message says why, the record's does not.
    return issue.issues.map((inner) => ({ path: formatPath(issue.path), message: inner.message }));
  }
  if (issue.code === "invalid_union") {
    // When the value had the right type for exactly one option, that option's complaints are
    // the useful ones; otherwise the union's own message ("expected a model id or …") is.
    const isTypeMismatch = (inner: z.core.$ZodIssue) => inner.path.length === 0 && inner.code === "invalid_type";
    const matching = issue.errors.filter((branch) => !branch.some(isTypeMismatch));
    const [only] = matching;
    if (matching.length === 1 && only) {
      return only.flatMap((inner) => toDefinitionIssues({ ...inner, path: [...issue.path, ...inner.path] }));
    }
  }
  return [{ path: formatPath(issue.path), message: issue.message }];
}

/** `cases[1].id`, `events["turn.completed"]`: how a field is written in the author's code. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      const name = String(segment);
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) return `[${JSON.stringify(name)}]`;
      return index === 0 ? name : `.${name}`;
    })
    .join("");
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
