// What an append tells the web processes through NOTIFY: "S:N" — session S has events up to
// index N — followed, when they fit in one notification, by the new events themselves, one per
// line as index, type, turn id, at and data (JSON text) separated by tabs (JSON text holds no raw
// tab or newline). A stream that is caught up writes them at once instead of reading the log.
import { eventLine, type EventLine } from "./read-events";

/** Postgres refuses notification payloads of 8000 bytes or more; some room is left. */
export const maxNotifyBytes = 7900;

export type Notice = { sessionId: string; lastIndex: number; lines?: EventLine[] };

export function parseNotice(payload: string): Notice | undefined {
  const headEnd = payload.indexOf("\n");
  const head = headEnd === -1 ? payload : payload.slice(0, headEnd);
  const colon = head.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const sessionId = head.slice(0, colon);
  const lastIndex = Number(head.slice(colon + 1));
  if (!Number.isInteger(lastIndex)) return undefined;
  if (headEnd === -1) return { sessionId, lastIndex };
  const lines = payload
    .slice(headEnd + 1)
    .split("\n")
    .map((text) => {
      const [index, type, turnId, at, ...data] = text.split("\t");
      return eventLine(sessionId, {
        index: Number(index),
        type: type!,
        turnId: turnId || null,
        at: at!,
        data: data.join("\t"),
      });
    });
  return { sessionId, lastIndex, lines };
}
