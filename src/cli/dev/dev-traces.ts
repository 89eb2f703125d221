// agentfold dev saves each session's events as it goes, one NDJSON line an event, at
// <state root>/traces/<sessionId>.ndjson, where `agentfold trajectory --events` reads them
// (docs/cli.md, "dev"). The log in Postgres stays the record; a trace is a copy for tools, written
// in index order from what an append announced (NOTIFY), so a burst of appends is one read.
import fs from "node:fs";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { sessionEventsChannel } from "@/server/channels";
import { listen } from "@/server/events/pg-listener";
import { readEvents } from "@/server/events/read-events";

export type DevTraces = { close: () => Promise<void> };

/** The index a trace goes on from: a restarted dev appends to what an earlier one saved, and a
 * last line cut off by a crash is dropped first. */
export function resumeTrace(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const text = fs.readFileSync(file, "utf8");
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  if (whole !== text) fs.writeFileSync(file, whole);
  const last = whole.trimEnd().split("\n").at(-1);
  return last ? (JSON.parse(last) as { index: number }).index + 1 : 0;
}

export async function saveDevTraces(options: {
  db: PrismaClient;
  databaseUrl: string;
  stateRoot: string;
  log: (line: string) => void;
}): Promise<DevTraces> {
  const { db, databaseUrl, log } = options;
  const dir = path.join(options.stateRoot, "traces");
  fs.mkdirSync(dir, { recursive: true });
  // Per session: the next index to write, and the write in flight (one at a time, in order).
  const written = new Map<string, { next: number; writing: Promise<void> }>();

  const fileOf = (sessionId: string) => path.join(dir, `${sessionId}.ndjson`);
  const catchUp = async (sessionId: string, lastIndex: number): Promise<void> => {
    const state = written.get(sessionId)!;
    while (state.next <= lastIndex) {
      const events = await readEvents({ db, sessionId, fromIndex: state.next });
      if (events.length === 0) return;
      fs.appendFileSync(fileOf(sessionId), events.map((event) => `${JSON.stringify(event)}\n`).join(""));
      state.next = events.at(-1)!.index + 1;
    }
  };
  const heard = (sessionId: string, lastIndex: number) => {
    const state = written.get(sessionId) ?? { next: resumeTrace(fileOf(sessionId)), writing: Promise.resolve() };
    written.set(sessionId, state);
    state.writing = state.writing
      .then(() => catchUp(sessionId, lastIndex))
      .catch((error) => log(`trace of ${sessionId}: ${(error as Error).message}`));
  };

  const listener = await listen({
    databaseUrl,
    name: "dev traces",
    log,
    channels: {
      [sessionEventsChannel.name]: (payload) => {
        const notice = sessionEventsChannel.decode(payload);
        if (notice) heard(notice.sessionId, notice.lastIndex);
      },
    },
    // Appends announced while the connection was down: every session seen catches up to its end.
    onReconnect: () => {
      for (const sessionId of written.keys()) heard(sessionId, Number.MAX_SAFE_INTEGER);
    },
  });
  return {
    async close() {
      await listener.close();
      await Promise.all([...written.values()].map((state) => state.writing));
    },
  };
}
