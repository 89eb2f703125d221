// The runner's `describe`: every module of the bundle loaded and reported as JSON (its kind and a
// summary of its descriptor, or why it failed to load), which the platform's loader checks and
// registers. Functions do not cross IPC, so a summary says what they are instead. This file runs
// ONLY in the sandbox.
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { toolJsonSchemas } from "@/agents/sdk/tools";
import { type AnyRecord, defaultExport, type ModuleLoaders } from "./bundle-modules";
import { errorText } from "./error-text";
import { toJsonSafe } from "./json-safe";
import type { ModuleReport } from "./protocol";
import { packHandlers } from "./run-event-handlers";

function summarize(value: unknown): unknown {
  // Handlers are functions, which JSON drops: keep the event names they listen to.
  if (descriptorKindOf(value) === "hook") return { events: Object.keys((value as { events?: object }).events ?? {}) };
  if (descriptorKindOf(value) === "channel") {
    const channel = value as { events?: object; onStart?: unknown; pack?: unknown } & AnyRecord;
    const events = Object.keys(channel.events ?? {});
    // The platform answers a pack's events without a sandbox when no handler of its own is defined.
    const handlers = packHandlers.filter((name) => typeof channel[name] === "function");
    return {
      ...(toJsonSafe(value) as object),
      events,
      hasOnStart: typeof channel.onStart === "function",
      ...(channel.pack === "github" ? { handlers } : {}),
    };
  }
  if (descriptorKindOf(value) === "tool") {
    const tool = value as AnyRecord;
    const schemas = toolJsonSchemas(value as never);
    return {
      description: tool.description,
      effect: tool.effect,
      execution: tool.execution,
      needsApproval: typeof tool.needsApproval === "function" ? "dynamic" : Boolean(tool.needsApproval),
      timeoutMs: tool.timeoutMs,
      ...(tool.dryRunResult === undefined
        ? {}
        : { dryRunResult: typeof tool.dryRunResult === "function" ? "function" : "value" }),
      inputSchema: schemas.input,
      outputSchema: schemas.output,
    };
  }
  return toJsonSafe(value);
}

export async function describeModule(modules: ModuleLoaders, file: string): Promise<ModuleReport> {
  try {
    const value = await defaultExport(modules, file);
    if (typeof value === "string") return { file, kind: "string", summary: value };
    if (Array.isArray(value)) {
      return {
        file,
        kind: "array",
        items: value.map((item) => ({ kind: descriptorKindOf(item), summary: summarize(item) })),
      };
    }
    return { file, kind: descriptorKindOf(value), summary: summarize(value) };
  } catch (error) {
    const stack = error instanceof Error ? error.stack?.slice(0, 4000) : undefined;
    return { file, error: errorText(error), ...(stack ? { errorStack: stack } : {}) };
  }
}
