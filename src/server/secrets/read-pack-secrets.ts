// The secrets a prebuilt channel pack (Slack, GitHub) works with: the platform reads them itself,
// by name, whether or not the agent declares them, and they never reach the sandbox
// (docs/integrations.md). Kept a few seconds per agent, since a streaming reply reads them for
// every event it posts.
import type { PrismaClient } from "@prisma/client";
import { decryptSecret } from "./secret-cipher";

export type PackSecretReader = (agentId: string, names: readonly string[]) => Promise<Record<string, string>>;

export function packSecretReader(options: {
  db: PrismaClient;
  key: Buffer;
  maxAgeMs?: number;
  clock?: () => number;
}): PackSecretReader {
  const { db, key, maxAgeMs = 5_000, clock = Date.now } = options;
  const kept = new Map<string, { at: number; values: Promise<Record<string, string>> }>();
  async function read(agentId: string, names: readonly string[]): Promise<Record<string, string>> {
    const rows = await db.agentSecret.findMany({
      where: { agentId, name: { in: [...names] } },
      select: { name: true, iv: true, tag: true, ciphertext: true },
    });
    const values: Record<string, string> = {};
    for (const row of rows) {
      const encrypted = { iv: Buffer.from(row.iv), tag: Buffer.from(row.tag), ciphertext: Buffer.from(row.ciphertext) };
      values[row.name] = decryptSecret({ key, agentId, name: row.name, encrypted });
    }
    return values;
  }
  return (agentId, names) => {
    const at = clock();
    for (const [cached, entry] of kept) if (at - entry.at >= maxAgeMs) kept.delete(cached);
    const cacheKey = `${agentId}\n${names.join("\n")}`;
    let entry = kept.get(cacheKey);
    if (!entry) {
      entry = { at, values: read(agentId, names) };
      entry.values.catch(() => kept.delete(cacheKey));
      kept.set(cacheKey, entry);
    }
    return entry.values;
  };
}
