// The Connect card of an OAuth MCP connection a turn waits for: one card per connection and turn,
// kept current by the latest request (each brings a new authorize URL) and that request's outcome.
import type { SessionEventOf } from "@/agents/sdk/events";
import type { ConnectionAuth, TranscriptItem } from "./transcript-types";

type ConnectionEvent = SessionEventOf<"connection.auth_requested" | "connection.auth_resolved">;
type ConnectionItem = Extract<TranscriptItem, { kind: "connection" }>;

export function requestConnection(
  items: TranscriptItem[],
  e: SessionEventOf<"connection.auth_requested">,
): TranscriptItem[] {
  const { authorizeUrl, expiresAt } = e.data;
  return upsert(items, e, (auth) => ({
    ...auth,
    status: "pending",
    authorizeUrl,
    expiresAt,
    requestedAt: e.at,
    resolvedAt: undefined,
  }));
}

export function resolveConnection(
  items: TranscriptItem[],
  e: SessionEventOf<"connection.auth_resolved">,
): TranscriptItem[] {
  return upsert(items, e, (auth) => ({ ...auth, status: e.data.outcome, resolvedAt: e.at }));
}

/** A wait left open by a turn that has ended will never be resolved: its Connect button goes. */
export function endConnectionWaits(items: TranscriptItem[], turnId: string | undefined): TranscriptItem[] {
  const isOpen = (item: TranscriptItem): item is ConnectionItem =>
    item.kind === "connection" && item.turnId === turnId && item.auth.status === "pending";
  if (!items.some(isOpen)) return items;
  return items.map((item) => (isOpen(item) ? { ...item, auth: { ...item.auth, status: "cancelled" } } : item));
}

/** Updates the connection's card in this turn; an outcome whose request this log lacks gets its own. */
function upsert(
  items: TranscriptItem[],
  e: ConnectionEvent,
  update: (auth: ConnectionAuth) => ConnectionAuth,
): TranscriptItem[] {
  const position = items.findLastIndex(
    (item) => item.kind === "connection" && item.turnId === e.turnId && item.auth.connection === e.data.connection,
  );
  if (position < 0) {
    const auth = update({ connection: e.data.connection, status: "pending" });
    return [...items, { kind: "connection", key: `connection-${e.index}`, turnId: e.turnId, auth }];
  }
  const next = [...items];
  const item = next[position] as ConnectionItem;
  next[position] = { ...item, auth: update(item.auth) };
  return next;
}
