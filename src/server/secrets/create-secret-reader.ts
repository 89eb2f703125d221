// The worker's view of agent secrets: for a version, the decrypted values of the names it expects
// (its manifest's secretNames), never any other of its agent's secrets. Kept in memory by version
// so that each sandbox start does not read and decrypt again, and dropped when a notice says the
// agent's secrets changed (src/server/channels.ts). As with the credential cache: nothing is kept
// while the listener is down (notices sent meanwhile are lost) and everything is dropped when it
// connects again; nothing is kept longer than maxAgeMs, for a connection that died without a
// word; and a read that was out when a notice arrived is not kept.
import type { PrismaClient } from "@prisma/client";
import { listen, type PgListener } from "@/server/events/pg-listener";
import { AppError } from "@/server/errors";
import { declaredSecretNames } from "./declared-secret-names";
import { decryptSecret } from "./secret-cipher";
import { secretsChannel } from "@/server/channels";
import { logWarning } from "@/server/logging/logger";

export type SecretReader = {
  /** The values of the secrets `versionId` expects that are set, by name. not_found for an unknown version. */
  forVersion: (versionId: string) => Promise<Record<string, string>>;
  close: () => Promise<void>;
};

type Kept = { agentId: string; values: Record<string, string>; at: number };

export async function createSecretReader(options: {
  db: PrismaClient;
  databaseUrl: string;
  key: Buffer;
  maxAgeMs?: number;
  clock?: () => number;
  /** The channel it listens on (tests use their own). */
  channel?: string;
  log?: (message: string) => void;
}): Promise<SecretReader> {
  const {
    db,
    databaseUrl,
    key,
    maxAgeMs = 5_000,
    clock = Date.now,
    channel = secretsChannel.name,
    log = logWarning,
  } = options;
  const kept = new Map<string, Kept>();
  let isListening = false;
  // Bumped by every drop: a read that started before one keeps nothing.
  let generation = 0;
  const drop = (agentId?: string) => {
    generation++;
    for (const [versionId, entry] of kept)
      if (agentId === undefined || entry.agentId === agentId) kept.delete(versionId);
  };
  let listener: PgListener | undefined;
  try {
    listener = await listen({
      name: "secret reader",
      databaseUrl,
      log,
      channels: {
        [channel]: (payload) => {
          drop(secretsChannel.decode(payload));
        },
      },
      onConnect: async () => {
        drop();
        isListening = true;
      },
      onDisconnect: () => {
        isListening = false;
        drop();
      },
    });
  } catch (error) {
    log(`secret reader: not listening (${(error as Error).message}); secrets are read for every sandbox`);
  }

  async function read(versionId: string): Promise<Omit<Kept, "at">> {
    const version = await db.agentVersion.findUnique({
      where: { id: versionId },
      select: {
        agentId: true,
        manifest: true,
        agent: { select: { secrets: { select: { name: true, iv: true, tag: true, ciphertext: true } } } },
      },
    });
    if (!version) throw new AppError("not_found", `no agent version ${versionId}`);
    const declared = new Set(declaredSecretNames(version.manifest));
    const values: Record<string, string> = {};
    for (const row of version.agent.secrets) {
      // The security boundary: a version gets only what it expects.
      if (!declared.has(row.name)) continue;
      const encrypted = { iv: Buffer.from(row.iv), tag: Buffer.from(row.tag), ciphertext: Buffer.from(row.ciphertext) };
      values[row.name] = decryptSecret({ key, agentId: version.agentId, name: row.name, encrypted });
    }
    return { agentId: version.agentId, values };
  }

  return {
    async forVersion(versionId) {
      const found = isListening ? kept.get(versionId) : undefined;
      if (found && clock() - found.at < maxAgeMs) return { ...found.values };
      const started = generation;
      // Aged from before the read: what it read may be older than its answer.
      const at = clock();
      const entry = await read(versionId);
      if (isListening && started === generation) kept.set(versionId, { ...entry, at });
      return { ...entry.values };
    },
    async close() {
      isListening = false;
      drop();
      await listener?.close();
    },
  };
}
