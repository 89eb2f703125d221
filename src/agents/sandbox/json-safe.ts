// Turns a descriptor into JSON for the platform: functions dropped, zod schemas as JSON Schema,
// cycles cut. Runs inside the sandbox.
import { z } from "zod";

function isZodSchema(value: object): value is z.ZodType {
  return "_zod" in value;
}

export function toJsonSafe(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "function" || typeof value === "symbol" || value === undefined) return undefined;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object") return undefined;
  if (seen.has(value)) return undefined;
  seen.add(value);
  if (isZodSchema(value)) {
    try {
      return z.toJSONSchema(value, { unrepresentable: "any" });
    } catch {
      return {};
    }
  }
  if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, seen) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const safe = toJsonSafe(item, seen);
    if (safe !== undefined) out[key] = safe;
  }
  return out;
}
