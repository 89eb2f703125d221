// The agent's modules as the bundle hands them to the runner: one lazy loader per file of the
// folder (src/agents/bundle/bundle-agent.ts), so one broken module cannot hide the others. A
// call loads the module it names; the MCP connections are known by their files. This file runs
// ONLY in the sandbox.
export type ModuleLoaders = Record<string, () => Promise<Record<string, unknown>>>;
export type AnyRecord = Record<string, unknown>;

/** The agent's MCP connections, named by their files (mcp-connections/, connections/, host-connections/). */
export function connectionNames(modules: ModuleLoaders): string[] {
  const names = Object.keys(modules).flatMap((file) => {
    const match = /^(?:[^/]+\/)?(?:mcp-connections|connections|host-connections)\/([^/]+)\.(?:ts|mts|js|mjs)$/.exec(
      file,
    );
    return match ? [match[1]!] : [];
  });
  return [...new Set(names)].sort();
}

export async function defaultExport(modules: ModuleLoaders, file: string): Promise<unknown> {
  const load = modules[file];
  if (!load) throw new Error(`no module ${file} in this bundle`);
  const loaded = await load();
  return "default" in loaded ? loaded.default : undefined;
}
