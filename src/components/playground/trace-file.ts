// A session's log as a `.ndjson` file and back: what `GET …/events` answers, one envelope a line.
// Reading is lenient: lines that are not events (heartbeats, an error line, a stray blank) are
// counted and skipped, so a saved stream opens as well as a saved dump.
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";

export type TraceFile = { events: SessionEvent[]; skipped: number };

export function parseTraceFile(text: string): TraceFile {
  const events: SessionEvent[] = [];
  let skipped = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const event = sessionEventSchema.safeParse(parseJson(line));
    if (event.success) events.push(event.data);
    else skipped++;
  }
  return { events, skipped };
}

export function toNdjson(events: readonly SessionEvent[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join("");
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
