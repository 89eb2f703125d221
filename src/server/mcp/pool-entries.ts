// The MCP connection pool's entries (connection-pool.ts), one per agent version and connection:
// the client opened for one resolved definition, its listed tools, how many uses hold it now, and
// the timer that closes it after idleMs without use. A closed entry leaves the map unless a newer
// one has taken its key.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

export type Entry = {
  configKey: string;
  client: Promise<Client>;
  tools?: Promise<Tool[]>;
  inFlight: number;
  idle?: NodeJS.Timeout;
  closed: boolean;
};

/** The pool's entries by `<versionId>\t<connection name>`. */
export type Entries = Map<string, Entry>;

export function closeEntry(entries: Entries, key: string, entry: Entry) {
  entry.closed = true;
  clearTimeout(entry.idle);
  if (entries.get(key) === entry) entries.delete(key);
  return entry.client.then((client) => client.close()).catch(() => undefined);
}

/** The kept entry if it was opened for configKey; else a new one whose client `open` opens. */
export function keptOrOpened(entries: Entries, key: string, configKey: string, open: () => Promise<Client>): Entry {
  const kept = entries.get(key);
  if (kept && !kept.closed && kept.configKey === configKey) return kept;
  if (kept) void closeEntry(entries, key, kept);
  const entry: Entry = { configKey, client: open(), inFlight: 0, closed: false };
  entries.set(key, entry);
  entry.client.then(
    (client) => {
      client.onclose = () => void closeEntry(entries, key, entry);
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        entry.tools = undefined;
      });
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  return entry;
}

/** A use starts: the entry is busy, its idle timer stopped. */
export function holdEntry(entry: Entry): void {
  entry.inFlight++;
  clearTimeout(entry.idle);
}

/** A use ended: an open entry no use holds now closes after idleMs. */
export function releaseEntry(entries: Entries, key: string, entry: Entry, idleMs: number): void {
  entry.inFlight--;
  clearTimeout(entry.idle);
  if (entry.inFlight > 0 || entry.closed) return;
  entry.idle = setTimeout(() => void closeEntry(entries, key, entry), idleMs);
  entry.idle.unref();
}
