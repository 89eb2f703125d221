// Bearer tokens, and the agents their requests address, kept in the web process between requests.
// Every API call checks its token and reads its agent: a round trip to Postgres at the head of each
// request, for rows that change rarely (a revocation, a deploy). Postgres announces every change:
// rules on "ApiToken" and "Agent" NOTIFY agentfold_credentials on each UPDATE and DELETE, cascades
// included (migration 20261130143000_credential_notices), and the cache drops all it holds when a
// notice arrives. A rule cannot tell which columns changed, so a token's last-use write (at most
// once a minute per token and process) drops everything too: one read again per token in use.
// Postgres refuses INSERT … ON CONFLICT (Prisma's upsert) on a table with an UPDATE rule. Processes that change them here drop it at once too (forgetCredentials), not a
// moment later when their notice comes back.
//
// Nothing is served from memory unless this process is listening: before its LISTEN connection is
// up, and from the moment it drops until it is back (notices sent meanwhile are lost), every
// lookup goes to the database. A connection can also die without a word (a failover behind a
// virtual address): keepalives notice that only after about a minute, so nothing is served older
// than maxAgeMs either, which bounds how long a missed revocation could go unseen. A lookup whose query was out when a notice arrived is not kept (it
// may have read the row as it was before the change). What the caller does not keep (an unknown
// token or agent: it may be created the next moment) is read every time; expiry is checked on
// each use by the caller, from the row.
import { credentialsChannel } from "@/server/channels";
import { listen, type PgListener } from "@/server/events/pg-listener";
import { logWarning } from "@/server/logging/logger";

/** The longest anything is kept; open streams check their credential again this often. */
export const credentialMaxAgeMs = 5_000;

export type CredentialCache = {
  /** The value under `key`: from memory while it is known to be current, else from `load` (and
   * kept when `keep` says so). */
  lookup: <T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean) => Promise<T>;
  /** Drops everything kept. */
  clear: () => void;
  close: () => Promise<void>;
};

export async function createCredentialCache(options: {
  databaseUrl: string;
  maxEntries?: number;
  maxAgeMs?: number;
  clock?: () => number;
  /** The channel it listens on (tests use their own, away from other changes). */
  channel?: string;
  log?: (message: string) => void;
}): Promise<CredentialCache> {
  const {
    databaseUrl,
    maxEntries = 10_000,
    maxAgeMs = credentialMaxAgeMs,
    clock = Date.now,
    channel = credentialsChannel.name,
    log = logWarning,
  } = options;
  const kept = new Map<string, { value: unknown; at: number }>();
  let isListening = false;
  // Bumped by every clear: a lookup that started before one keeps nothing.
  let generation = 0;
  const clear = () => {
    generation++;
    kept.clear();
  };
  let listener: PgListener | undefined;
  try {
    listener = await listen({
      name: "credential cache",
      databaseUrl,
      log,
      channels: { [channel]: clear },
      onConnect: async () => {
        clear();
        isListening = true;
      },
      onDisconnect: () => {
        isListening = false;
        clear();
      },
    });
  } catch (error) {
    // Without a connection to listen on, nothing is kept (every lookup reads), which is how the
    // web worked before: log it, and serve.
    log(`credential cache: not listening (${(error as Error).message}); every request reads its token`);
  }
  return {
    async lookup<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
      const found = isListening ? kept.get(key) : undefined;
      if (found && clock() - found.at < maxAgeMs) return found.value as T;
      const started = generation;
      const at = clock();
      const value = await load();
      if (isListening && started === generation && keep(value)) {
        if (kept.size >= maxEntries) kept.clear();
        kept.set(key, { value, at });
      }
      return value;
    },
    clear,
    async close() {
      isListening = false;
      clear();
      await listener?.close();
    },
  };
}

// One cache per process: the API front and Next's bundle load this module separately, and a
// change made through either must drop what the other keeps.
const processCache = Symbol.for("agentfold.credentialCache");
type ProcessGlobal = typeof globalThis & { [processCache]?: Promise<CredentialCache> };

/** The process's cache, made on first use. */
export function processCredentialCache(databaseUrl: string): Promise<CredentialCache> {
  const g = globalThis as ProcessGlobal;
  return (g[processCache] ??= createCredentialCache({ databaseUrl }));
}

/** Called by whatever changes tokens or agents in this process, after the change committed: what
 * this process keeps is dropped now (other processes hear the change's notice). */
export function forgetCredentials(): void {
  const cached = (globalThis as ProcessGlobal)[processCache];
  void cached?.then((cache) => cache.clear());
}
