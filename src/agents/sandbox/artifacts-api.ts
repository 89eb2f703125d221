// ctx.artifacts inside the sandbox (docs/agent-folders.md, "Artifacts"): the kind rules and the
// kind's schema are applied here, where the registry's zod schemas live (resolveArtifactTag),
// and the parsed record goes to the platform as a host call. This file runs ONLY in the sandbox.
import { resolveArtifactTag } from "@/agents/sdk/artifacts";
import { hostCall } from "./host-calls";

type ModuleLoaders = Record<string, () => Promise<Record<string, unknown>>>;
type Registry = { kinds?: Record<string, unknown>; max?: number };

/** The agent's registry (`<root>/artifacts.ts`), if it has one. */
async function registryOf(modules: ModuleLoaders): Promise<Registry | undefined> {
  const file = Object.keys(modules).find((name) => /^(?:[^/]+\/)?artifacts\.(?:ts|mts|js|mjs)$/.test(name));
  if (!file) return undefined;
  const loaded = await modules[file]!();
  return loaded.default as Registry | undefined;
}

/** What the facade fills in: the session (and, in hooks, the turn) the code runs for. */
export type ArtifactScope = { sessionId?: string; turnId?: string };

export function artifactsApi(requestId: number, modules: ModuleLoaders, scope: ArtifactScope) {
  return Object.freeze({
    async tag(input: {
      kind?: string;
      key: string;
      title?: string;
      data?: unknown;
      sessionId?: string;
      turnId?: string;
    }) {
      const registry = await registryOf(modules);
      const { kind, data } = resolveArtifactTag(registry as never, input);
      return hostCall(requestId, "artifacts.tag", {
        kind,
        key: input.key,
        ...(input.title !== undefined ? { title: input.title } : {}),
        data,
        sessionId: input.sessionId ?? scope.sessionId,
        turnId: input.turnId ?? scope.turnId,
        max: registry?.max ?? 1000,
      });
    },
    list: (filter?: { kind?: string; sessionId?: string; limit?: number }) =>
      hostCall(requestId, "artifacts.list", filter ?? {}),
  });
}
