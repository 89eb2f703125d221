// A small form from a route's JSON Schema: an object of string, number, boolean and enum fields.
// Anything else (nested objects, arrays, unions) is edited as JSON instead.
import type { JsonSchema } from "./channel-routes";

export type FormField = {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum";
  isRequired: boolean;
  options?: string[];
  description?: string;
};

/** What an input holds: text for every kind ("" = left out), "true"/"false" for a boolean. */
export type FormValues = Record<string, string>;

function fieldOf(name: string, schema: unknown, isRequired: boolean): FormField | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { type, enum: options, description } = schema as { type?: unknown; enum?: unknown; description?: unknown };
  const base = { name, isRequired, ...(typeof description === "string" ? { description } : {}) };
  if (Array.isArray(options) && options.length > 0 && options.every((option) => typeof option === "string"))
    return { ...base, kind: "enum", options: options as string[] };
  if (type === "string" || type === "number" || type === "integer" || type === "boolean")
    return { ...base, kind: type };
  return undefined;
}

/** The fields of an object schema, or null when the schema needs the JSON editor. */
export function formFields(schema: JsonSchema | undefined): FormField[] | null {
  if (schema?.type !== "object") return null;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields = Object.entries(properties).map(([name, property]) => fieldOf(name, property, required.has(name)));
  return fields.every((field) => field !== undefined) ? (fields as FormField[]) : null;
}

/** The JSON a form sends: empty optional fields are left out, numbers are numbers. */
export function formBody(fields: FormField[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name] ?? "";
    if (value === "" && !(field.isRequired && (field.kind === "string" || field.kind === "enum"))) continue;
    if (field.kind === "boolean") body[field.name] = value === "true";
    else if (field.kind === "number" || field.kind === "integer") body[field.name] = Number(value);
    else body[field.name] = value;
  }
  return body;
}

/** A remembered body back into form values; what the fields cannot hold is dropped. */
export function formValues(fields: FormField[], body: unknown): FormValues {
  const source = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const values: FormValues = {};
  for (const field of fields) {
    const value = source[field.name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      values[field.name] = String(value);
    else if (field.kind === "boolean" && field.isRequired) values[field.name] = "false";
  }
  return values;
}

/** A starting body for the JSON editor: every property with an empty value of its type. */
export function sampleOf(schema: JsonSchema | undefined): unknown {
  if (schema?.type !== "object") return undefined;
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const options = property?.enum;
    if (Array.isArray(options) && options.length > 0) sample[name] = options[0];
    else if (property?.type === "string") sample[name] = "";
    else if (property?.type === "number" || property?.type === "integer") sample[name] = 0;
    else if (property?.type === "boolean") sample[name] = false;
    else if (property?.type === "object") sample[name] = sampleOf(property) ?? {};
    else if (property?.type === "array") sample[name] = [];
    else sample[name] = null;
  }
  return sample;
}
