// The agent's own tools on its MCP server: exactly those POST /<slug>/v1/tools/:name would run
// for this caller (src/server/tools/call-tool.ts), run through that same code path. A caller
// without tools:call gets none; a tool that always needs approval (`needsApproval: true`) only a
// caller who may approve it (then approved by that caller, as there); a tool whose function
// decides is listed, and an input it refuses answers isError. `ask` and `check` keep their
// names: an agent tool called so is not listed here (POST /tools still reaches it).
import type { PrismaClient } from "@prisma/client";
import { ContentBlockSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentManifest, ToolManifest } from "@/agents/loader/manifest";
import type { Caller } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { callTool } from "@/server/tools/call-tool";

type Agent = { id: string; slug: string; teamId: string; activeVersionId: string | null };

export const ownToolNames = new Set(["ask", "check"]);

/** The active version's tools this caller may call directly. */
export async function directTools(db: PrismaClient, agent: Agent, caller: Caller): Promise<ToolManifest[]> {
  if (!agent.activeVersionId || !caller.can("tools:call", agent.slug, agent.teamId)) return [];
  const version = await db.agentVersion.findUnique({
    where: { id: agent.activeVersionId },
    select: { manifest: true },
  });
  const mayApprove = caller.can("approvals:write", agent.slug, agent.teamId);
  return ((version?.manifest as AgentManifest | null)?.tools ?? []).filter(
    (tool) => !ownToolNames.has(tool.name) && (tool.needsApproval !== true || mayApprove),
  );
}

/** A JSON Schema as MCP lists it: an object schema, without the `$schema` dialect (clients'
 * validators may not know 2020-12, and MCP fixes the dialect anyway). */
function objectSchema(schema: unknown): { type: "object"; [key: string]: unknown } | undefined {
  if (!schema || typeof schema !== "object" || (schema as { type?: unknown }).type !== "object") return undefined;
  const { $schema: _, ...rest } = schema as Record<string, unknown>;
  return rest as { type: "object" };
}

export function toMcpTool(tool: ToolManifest): Tool {
  const outputSchema = objectSchema(tool.outputSchema);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: objectSchema(tool.inputSchema) ?? { type: "object" },
    ...(outputSchema ? { outputSchema } : {}),
    annotations: { readOnlyHint: tool.effect === "read" },
  };
}

const envelopeSchema = z.object({ content: z.array(ContentBlockSchema), isError: z.boolean().optional() });

/** Runs the tool as a direct call; refusals (AppError) are the caller's to answer. */
export async function callDirectTool(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agent: Agent;
  caller: Caller;
  tool: ToolManifest;
  args: Record<string, unknown> | undefined;
}): Promise<CallToolResult> {
  const { tool, ...rest } = options;
  const { output, isError } = await callTool({
    ...rest,
    toolName: tool.name,
    body: { input: (options.args ?? {}) as never },
  });
  // An envelope of MCP content parts (docs/agent-folders.md) is passed on as it is.
  const envelope = envelopeSchema.safeParse(output);
  if (envelope.success) return { content: envelope.data.content, isError: isError || envelope.data.isError === true };
  const text = typeof output === "string" ? output : JSON.stringify(output ?? null);
  const content = [{ type: "text" as const, text }];
  if (isError || !objectSchema(tool.outputSchema)) return { content, isError };
  // A tool with an output schema answers structured content, as MCP clients expect of it.
  if (!output || typeof output !== "object" || Array.isArray(output))
    return { content: [{ type: "text", text: `${tool.name} returned no object for its outputSchema` }], isError: true };
  return { content, structuredContent: output as Record<string, unknown>, isError: false };
}
