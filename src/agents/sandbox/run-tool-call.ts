// A tool in the sandbox: its `execute` (or, in a dry-run session, its `dryRunResult`) with the
// input parsed by its schema and the tool's ctx, and its `needsApproval` rule for an input. A
// throw is the call's error result, and a bad input says so (invalidInput). This file runs ONLY
// in the sandbox.
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { ToolInputError } from "@/agents/sdk/tool-schemas";
import { parseToolInput } from "@/agents/sdk/tools";
import { artifactsApi } from "./artifacts-api";
import { defaultExport, type ModuleLoaders } from "./bundle-modules";
import { backgroundWork, hostFor, sessionOf } from "./call-ctx";
import { logCallError } from "./console-capture";
import { errorText } from "./error-text";
import { sessionServices } from "./host-calls";
import { toJsonSafe } from "./json-safe";
import type { ToolCallContext, ToolRunResult } from "./protocol";

export async function runTool(
  modules: ModuleLoaders,
  params: { file: string; input: unknown; context: ToolCallContext; isDryRun?: boolean },
  requestId: number,
): Promise<ToolRunResult> {
  try {
    const tool = await defaultExport(modules, params.file);
    if (descriptorKindOf(tool) !== "tool")
      return { ok: false, error: `${params.file} does not export defineTool(...)` };
    const { execute: run, dryRunResult } = tool as {
      execute: (input: unknown, ctx: unknown) => unknown;
      dryRunResult?: unknown;
    };
    // A dry-run session's write: the tool's stand-in answers (a value, or its function's).
    const execute = params.isDryRun
      ? typeof dryRunResult === "function"
        ? (dryRunResult as (input: unknown, ctx: unknown) => unknown)
        : () => dryRunResult
      : run;
    const input = parseToolInput(tool as never, params.input);
    const background = backgroundWork();
    const ctx = {
      ...params.context,
      host: hostFor(modules, requestId),
      ...sessionServices(requestId),
      waitUntil: background.waitUntil,
      artifacts: artifactsApi(requestId, modules, { sessionId: sessionOf(params.context.session.id) }),
    };
    const output = await execute(input, Object.freeze(ctx));
    await background.settled();
    return { ok: true, output: toJsonSafe(output) ?? null };
  } catch (error) {
    // A bad input is the model's, told in the result; anything else is the tool's own error.
    if (!(error instanceof ToolInputError)) logCallError(error, params.file);
    return { ok: false, error: errorText(error), ...(error instanceof ToolInputError ? { invalidInput: true } : {}) };
  }
}

export async function needsApproval(
  modules: ModuleLoaders,
  params: { file: string; input: unknown; context: ToolCallContext },
) {
  try {
    const tool = (await defaultExport(modules, params.file)) as { needsApproval?: unknown };
    const rule = tool.needsApproval;
    if (typeof rule !== "function") return { needsApproval: Boolean(rule) };
    const input = parseToolInput(tool as never, params.input);
    return { needsApproval: Boolean(await rule(input, Object.freeze({ ...params.context }))) };
  } catch (error) {
    return { needsApproval: true, error: errorText(error) };
  }
}
