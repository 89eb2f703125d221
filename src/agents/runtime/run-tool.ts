// Runs one tool call in the agent's sandbox and always answers with a result the model can see:
// a thrown error, a timeout, a crash or an out-of-memory kill all become `{ ok: false, error }`,
// and the platform goes on serving.
import type { ToolManifest } from "@/agents/loader/manifest";
import type { ToolCallContext, ToolRunResult } from "@/agents/sandbox/protocol";
import { SandboxError, type Sandbox } from "@/agents/sandbox/sandbox";

export async function runTool(options: {
  sandbox: Sandbox;
  tool: ToolManifest;
  input: unknown;
  context: ToolCallContext;
  signal?: AbortSignal;
  /** What host calls made during this call act on (its session). */
  hostContext?: unknown;
  /** Answer with the tool's dryRunResult instead of running it. */
  isDryRun?: boolean;
}): Promise<ToolRunResult> {
  const { sandbox, tool, input, context, signal, hostContext } = options;
  try {
    return await sandbox.call(
      "runTool",
      { file: tool.file, input, context, ...(options.isDryRun ? { isDryRun: true } : {}) },
      { timeoutMs: tool.timeoutMs, signal, hostContext },
    );
  } catch (error) {
    if (error instanceof SandboxError) return { ok: false, error: `${tool.name}: ${error.message}` };
    throw error;
  }
}
