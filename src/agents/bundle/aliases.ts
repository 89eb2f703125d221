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
