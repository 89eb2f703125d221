// The secret names a version's manifest expects. Manifests built before they were kept list
// none: their connections' `${NAME}` templates are all there is to go by.
import type { AgentManifest } from "@/agents/loader/manifest";
import { templateNames } from "@/agents/sdk/env-template";

export function declaredSecretNames(manifest: unknown): string[] {
  const m = manifest as Partial<AgentManifest> | null | undefined;
  if (!m) return [];
  if (Array.isArray(m.secretNames)) return m.secretNames.map(String);
  return [...new Set((m.connections ?? []).flatMap((c) => templateNames(JSON.stringify(c.config ?? {}))))].sort();
}
