// `agentfold/connections`: defineConnection (docs/agent-folders.md, "The `define*` helpers"). One
// file in mcp-connections/ (or host-connections/) is one MCP server: remote by url, local by
// command, or a peer agent.
import { z } from "zod";
import { DefinitionError, type Descriptor } from "./descriptor";
import { templateNames, templateProblem } from "./env-template";
import { define, isPlainObject, nonEmptyString } from "./validation";

export { resolveEnvTemplate } from "./env-template";

type Common = { description?: string; advertiseTools?: boolean; optional?: boolean };
export type RemoteConnection = Common & { url: string; headers?: Record<string, string>; oauth?: boolean };
export type StdioConnection = Common & {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
};
export type PeerConnection = Common & { agent: string };
export type ConnectionConfig = RemoteConnection | StdioConnection | PeerConnection;
export type ConnectionForm = "remote" | "stdio" | "agent";

export type ConnectionDescriptor = Descriptor<
  "connection",
  (RemoteConnection & { form: "remote" }) | (StdioConnection & { form: "stdio" }) | (PeerConnection & { form: "agent" })
>;

const templated = z.string().superRefine((text, ctx) => {
  const problem = templateProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

// A url that starts with a template ("${MCP_URL}") can only be checked once it is resolved.
const templatedUrl = templated.refine((url) => url.startsWith("${") || isHttpUrl(url.replace(/\$\{\w+\}/g, "x")), {
  error: "expected an http(s) URL",
});

function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

const common = {
  description: nonEmptyString.optional(),
  advertiseTools: z.boolean().optional(),
  optional: z.boolean().optional(),
};

const formSchemas = {
  remote: z
    .strictObject({
      ...common,
      url: templatedUrl,
      headers: z.record(z.string(), templated).optional(),
      oauth: z.boolean().optional(),
    })
    .transform((config) => ({ ...config, form: "remote" as const })),
  stdio: z
    .strictObject({
      ...common,
      command: nonEmptyString.pipe(templated),
      args: z.array(templated).optional(),
      env: z.record(z.string(), templated).optional(),
      cwd: templated.optional(),
    })
    .transform((config) => ({ ...config, form: "stdio" as const })),
  agent: z
    .strictObject({ ...common, agent: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "expected an agent slug") })
    .transform((config) => ({ ...config, form: "agent" as const })),
};

function formOf(config: unknown): ConnectionForm {
  // Not an object: any form's schema reports that.
  if (!isPlainObject(config)) return "remote";
  const has = (key: string) => key in config;
  if (has("cursorAccount")) {
    throw new DefinitionError("defineConnection", [
      {
        path: "cursorAccount",
        message: "Cursor account connectors are Cursor-hosted and not available; connect the server by url or command",
      },
    ]);
  }
  const forms = (["url", "command", "agent"] as const).filter(has);
  if (forms.length !== 1) {
    throw new DefinitionError("defineConnection", [
      { path: "", message: `give exactly one of url, command or agent (got ${forms.join(" and ") || "none"})` },
    ]);
  }
  return forms[0] === "url" ? "remote" : forms[0] === "command" ? "stdio" : "agent";
}

export function defineConnection(config: ConnectionConfig): ConnectionDescriptor {
  return define("connection", "defineConnection", formSchemas[formOf(config)], config);
}

/** The `${NAME}` variables a connection reads, so `validate` can warn about undefined ones. */
export function envTemplateNames(connection: ConnectionConfig): string[] {
  const texts: string[] = [];
  if ("url" in connection) texts.push(connection.url, ...Object.values(connection.headers ?? {}));
  if ("command" in connection) {
    texts.push(connection.command, ...(connection.args ?? []), ...Object.values(connection.env ?? {}));
    if (connection.cwd !== undefined) texts.push(connection.cwd);
  }
  return [...new Set(texts.flatMap(templateNames))];
}
