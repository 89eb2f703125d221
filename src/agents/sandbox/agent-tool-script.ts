// The program behind an `execution: "agent"` tool: a script in the session workspace, run as
// `node .agentfold/tools/<name>.mjs '<json input>'`, printing the result as JSON. Bundled per
// tool; it runs wherever the workspace's commands run, never in web or worker.
import { parseToolInput } from "@/agents/sdk/tools";

export async function runAgentToolScript(tool: { execute: (input: unknown, ctx: unknown) => unknown }): Promise<void> {
  try {
    const raw = process.argv[2] ?? "{}";
    const input = parseToolInput(tool as never, JSON.parse(raw));
    const context = {
      toolCallId: process.env.AGENTFOLD_TOOL_CALL_ID ?? "script",
      workspaceDir: process.cwd(),
      stateRoot: process.cwd(),
    };
    const output = await tool.execute(input, context);
    process.stdout.write(JSON.stringify(output ?? null) + "\n");
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
