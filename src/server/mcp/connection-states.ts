// An agent's MCP connections as its page and GET /<slug>/v1/connections show them: each of the
// active version's connections with its form, scope and where it points, and for `oauth: true`
// ones whether the agent holds an authorization for the URL it has now.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/errors";
import { connectionConfig } from "./resolve-connection";

export const connectionStateSchema = z.object({
  name: z.string(),
  scope: z.enum(["mcp", "host"]),
  form: z.enum(["remote", "stdio", "agent"]),
  /** The url (templates unresolved), the command, or the peer's slug. */
  target: z.string(),
  optional: z.boolean(),
  advertiseTools: z.boolean(),
  auth: z.enum(["connected", "not_connected", "not_needed"]),
  connectedAt: z.string().nullable(),
});
export type ConnectionState = z.infer<typeof connectionStateSchema>;
export const connectionListSchema = z.object({ ok: z.literal(true), connections: z.array(connectionStateSchema) });

export async function listConnectionStates(
  db: PrismaClient,
  agent: { id: string; activeVersionId: string | null },
): Promise<ConnectionState[]> {
  if (!agent.activeVersionId) return [];
  const [version, held] = await Promise.all([
    db.agentVersion.findUnique({ where: { id: agent.activeVersionId }, select: { manifest: true } }),
    db.mcpAuthorization.findMany({
      where: { agentId: agent.id },
      select: { connection: true, serverUrl: true, connectedAt: true },
    }),
  ]);
  const declared = (version?.manifest as AgentManifest | null)?.connections ?? [];
  return declared.map((connection) => {
    const config = connectionConfig(connection);
    const form = config.form === "stdio" ? "stdio" : config.form === "agent" ? "agent" : "remote";
    const kept = held.find((row) => row.connection === connection.name && row.serverUrl === config.url);
    return {
      name: connection.name,
      scope: connection.scope,
      form,
      target:
        form === "stdio"
          ? [config.command, ...(config.args ?? [])].join(" ")
          : String(config.url ?? config.agent ?? ""),
      optional: config.optional === true,
      advertiseTools: config.advertiseTools === true,
      auth: !config.oauth ? "not_needed" : kept?.connectedAt ? "connected" : "not_connected",
      connectedAt: kept?.connectedAt?.toISOString() ?? null,
    };
  });
}

/** Disconnect: forgets what the agent holds for the connection; the next turn asks again. */
export async function disconnectConnection(
  db: PrismaClient,
  agentId: string,
  name: string,
): Promise<{ removed: boolean }> {
  const { count } = await db.mcpAuthorization.deleteMany({ where: { agentId, connection: name } });
  if (count === 0) throw new AppError("not_found", `the agent holds no authorization for connection ${name}`);
  return { removed: true };
}
