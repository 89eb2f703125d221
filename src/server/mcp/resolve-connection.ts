// A connection's definition with its `${NAME}` templates filled from the agent's secrets, as it
// is each time a client opens (docs/agent-folders.md, "MCP connections"): a rotated secret
// reaches the next connect, and a changed one makes the pool open a fresh client.
import type { AgentManifest } from "@/agents/loader/manifest";
import { resolveEnvTemplate } from "@/agents/sdk/env-template";

export type ManifestConnection = AgentManifest["connections"][number];

export type ResolvedConnection =
  | { form: "remote"; url: string; headers: Record<string, string>; oauth: boolean }
  | { form: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { form: "agent"; agent: string };

type Config = {
  form?: string;
  url?: string;
  headers?: Record<string, string>;
  oauth?: boolean;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  agent?: string;
  optional?: boolean;
  advertiseTools?: boolean;
  description?: string;
};

export function connectionConfig(connection: ManifestConnection): Config {
  return (connection.config ?? {}) as Config;
}

/** The resolved definition, and the secrets its templates name that are not set. */
export function resolveConnection(
  connection: ManifestConnection,
  secrets: Record<string, string>,
): { resolved: ResolvedConnection; missing: string[] } {
  const config = connectionConfig(connection);
  const missing = new Set<string>();
  const fill = (text: string) => {
    const { text: resolved, missing: names } = resolveEnvTemplate(text, secrets);
    for (const name of names) missing.add(name);
    return resolved;
  };
  const fillAll = (record: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, fill(value)]));
  const resolved: ResolvedConnection =
    config.form === "stdio"
      ? {
          form: "stdio",
          command: fill(config.command ?? ""),
          args: (config.args ?? []).map(fill),
          env: fillAll(config.env),
          ...(config.cwd !== undefined ? { cwd: fill(config.cwd) } : {}),
        }
      : config.form === "agent"
        ? { form: "agent", agent: config.agent ?? "" }
        : {
            form: "remote",
            url: fill(config.url ?? ""),
            headers: fillAll(config.headers),
            oauth: config.oauth === true,
          };
  return { resolved, missing: [...missing] };
}
