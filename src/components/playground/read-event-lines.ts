// Reads one stream response: NDJSON lines to session events, heartbeats skipped, a slow-reader
// error line ends the read so the caller reconnects from the last index it has.
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { streamControlLineSchema } from "@/agents/sdk/stream-lines";
import { lineChunks } from "./line-splitter";

export type ReadOutcome = "ended" | "slow_reader";

export async function readEventLines(
  body: ReadableStream<Uint8Array>,
  onEvents: (events: SessionEvent[]) => void,
): Promise<ReadOutcome> {
  for await (const lines of lineChunks(body)) {
    const events: SessionEvent[] = [];
    for (const line of lines) {
      const parsed = parseLine(line);
      if (parsed === "slow_reader") {
        if (events.length) onEvents(events);
        return "slow_reader";
      }
      if (parsed) events.push(parsed);
    }
    // One update per network chunk, not per line: a replay of thousands of events stays cheap.
    if (events.length) onEvents(events);
  }
  return "ended";
}

function parseLine(line: string): SessionEvent | "slow_reader" | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const event = sessionEventSchema.safeParse(value);
  if (event.success) return event.data;
  // Any error line ends the read: it names the index to reconnect from.
  const control = streamControlLineSchema.safeParse(value);
  return control.success && control.data.type === "error" ? "slow_reader" : undefined;
}
