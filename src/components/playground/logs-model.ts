// The Logs tab's state (docs/logs.md): lines polled from GET /<slug>/v1/logs, kept in order, each
// once, and at most `maxKept` of them (the newest) so a tab left open does not grow without end.
import type { LogLine } from "@/server/logging/schema";

export type { LogLine };

export type LogFilters = { level?: LogLine["level"]; source?: LogLine["source"]; session?: string };

export const maxKept = 1_000;

/** The lines kept after `incoming` arrived: in id order, none twice, the newest `max`. */
export function appendLines(kept: LogLine[], incoming: LogLine[], max = maxKept): LogLine[] {
  if (incoming.length === 0) return kept;
  const seen = new Set(kept.map((line) => line.id));
  const fresh = incoming.filter((line) => !seen.has(line.id) && (seen.add(line.id), true));
  if (fresh.length === 0) return kept;
  const all = [...kept, ...fresh].sort((a, b) => compareIds(a.id, b.id));
  return all.length > max ? all.slice(all.length - max) : all;
}

/** Ids are decimal bigints: longer is larger, then by characters. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The query of a first read (the newest lines) or of a poll past `cursor`. */
export function logsPath(filters: LogFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.level) query.set("level", filters.level);
  if (filters.source) query.set("source", filters.source);
  if (filters.session) query.set("session", filters.session);
  if (cursor) query.set("cursor", cursor);
  query.set("limit", cursor ? "1000" : "200");
  return `/logs?${query}`;
}
