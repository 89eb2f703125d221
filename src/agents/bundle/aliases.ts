// Import names an agent folder may use for the authoring package, all resolving to the
// platform's own copy (src/agents/sdk): ours, and Cursor's July and BDK package names, so
// folders written for Cursor's SDK bundle unmodified.
import path from "node:path";

export const sdkPackages = ["agentfold", "@cursor/july", "@cursor/bdk"] as const;

export const sdkSubpaths = new Set([
  "tools",
  "hooks",
  "channels",
  "channels/slack",
  "channels/github",
  "schedules",
  "skills",
  "evals",
  "artifacts",
  "connections",
  "result",
  "memory",
  "prompt",
  "extensions/jev",
]);

export const sdkImport = /^(agentfold|@cursor\/july|@cursor\/bdk)(\/.+)?$/;

/** The platform file behind an SDK import, or undefined for an unknown subpath. */
export function sdkModulePath(sdkDir: string, specifier: string): string | undefined {
  const match = specifier.match(sdkImport);
  if (!match) return undefined;
  const subpath = match[2]?.slice(1);
  if (subpath === undefined) return path.join(sdkDir, "index.ts");
  return sdkSubpaths.has(subpath) ? path.join(sdkDir, `${subpath}.ts`) : undefined;
}

const compatibilityDoc = 'docs/compatibility.md, "Cursor-hosted only"';

/** Subpaths of Cursor's packages that drive Cursor's hosted services, and what to do instead. */
const cursorHostedSubpaths: Record<string, string> = {
  "extensions/cursor-cloud-agents":
    "it launches Cursor Cloud Agents on Cursor's backend; start work on this instance with ctx.send(...) instead, " +
    "or call Cursor's Cloud Agents API from a tool with your own key in hosting.secretNames",
};

/** Names Cursor's packages export for their hosted services, wherever the folder imports them from. */
const cursorHostedExports: Record<string, string> = {
  cursorPlugin:
    "it mounts a plugin from Cursor's marketplace, which Cursor's hosting fetches; copy the plugin's skills into " +
    "bot/skills/ and its MCP servers into bot/mcp-connections/",
};

/** Cursor's own server, which has no place inside an agent here: the platform is the server. */
const platformServes =
  "the platform serves the agent: `agentfold dev` on your machine, `agentfold deploy` to an instance, whose " +
  "scoped tokens replace authToken (docs/cli.md)";

/** The one error for an import of a Cursor-hosted subpath, or undefined for any other specifier. */
export function cursorHostedImport(specifier: string): string | undefined {
  const subpath = specifier.match(sdkImport)?.[2]?.slice(1);
  if (!subpath) return undefined;
  const why =
    cursorHostedSubpaths[subpath] ??
    (subpath.startsWith("extensions/")
      ? "extensions are mounted by Cursor's hosting; copy the tools, skills and connections the agent needs into bot/"
      : undefined);
  return why && `'${specifier}' is Cursor-hosted only: ${why} (${compatibilityDoc})`;
}

/** The one error for a Cursor-hosted name imported from the authoring package, else undefined. */
export function cursorHostedExport(name: string, specifier: string): string | undefined {
  if (name === "serve") return `'serve' from ${specifier} is not available on Agentfold: ${platformServes}`;
  const why = Object.hasOwn(cursorHostedExports, name) ? cursorHostedExports[name] : undefined;
  return why && `'${name}' from ${specifier} is Cursor-hosted only: ${why} (${compatibilityDoc})`;
}
