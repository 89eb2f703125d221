// agentfold trajectory --events <file.ndjson> | --url <agent url> --session <id>: a session's
// events (a saved stream or trace dump, or read from the agent) in the shape `run` prints
// (docs/cli.md, "trajectory"). Lines that are not session events (heartbeats) are skipped.
import fs from "node:fs";
import readline from "node:readline";
import { type Env, parseEnv } from "@/env";
import { type SessionEvent, sessionEventSchema } from "@/agents/sdk/events";
import { defineCommand } from "@/cli/command";
import { agentSlugFlag, tokenFlag } from "@/cli/flags";
import { agentClient, agentTargetOf } from "@/cli/remote/agent-target";
import { parseAnswer } from "@/cli/remote/instance-client";
import { trajectoryOf } from "@/cli/session/trajectory";
import { UsageError } from "@/cli/usage-error";
import { parseNdjson } from "@/server/http/ndjson";

/** A page of GET …/events: the route's own limit. */
const pageSize = 10_000;

async function eventsOfFile(file: string): Promise<SessionEvent[]> {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const events: SessionEvent[] = [];
  let lineNumber = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`${file}:${lineNumber} is not JSON: an events file has one JSON event per line`);
    }
    const event = sessionEventSchema.safeParse(value);
    if (event.success) events.push(event.data);
  }
  return events;
}

async function eventsOfSession(
  flags: { url?: string; token?: string; slug?: string; session: string },
  config: Env,
): Promise<SessionEvent[]> {
  const client = agentClient(agentTargetOf(flags, config));
  const events: SessionEvent[] = [];
  for (;;) {
    const path = `/session/${encodeURIComponent(flags.session)}/events?startIndex=${events.length}&limit=${pageSize}`;
    const response = await client.send("GET", path, { accept: "application/x-ndjson" });
    if (!response.ok || !response.body) await parseAnswer(response, sessionEventSchema, `GET ${client.base}${path}`);
    let count = 0;
    for await (const value of parseNdjson(response.body!)) {
      count++;
      const event = sessionEventSchema.safeParse(value);
      if (event.success) events.push(event.data);
    }
    if (count < pageSize) return events;
  }
}

export const trajectoryCommandSpec = defineCommand({
  name: "trajectory",
  group: "sessions",
  summary:
    "Print a session's tool calls, reply and usage as JSON (the shape of run) from an events file or a running agent",
  flags: {
    events: { type: "string", value: "<file.ndjson>", description: "A saved stream or GET …/events dump" },
    url: { type: "string", value: "<agent url>", description: "A running agent: http://127.0.0.1:3000/<agent>" },
    session: { type: "string", value: "<id>", description: "The session to read there" },
    token: tokenFlag,
    slug: agentSlugFlag,
  },
  examples: [
    "agentfold trajectory --events trace.ndjson",
    "agentfold trajectory --url http://127.0.0.1:3000/support-desk --session ses_…",
  ],
  run: async ({ flags }) => {
    if (!flags.events === !flags.session)
      throw new UsageError("trajectory reads --events <file> or --session <id> (with --url): one of the two");
    const events = flags.events
      ? await eventsOfFile(flags.events)
      : await eventsOfSession({ ...flags, session: flags.session! }, parseEnv());
    if (events.length === 0) throw new UsageError("no session events there");
    process.stdout.write(`${JSON.stringify(trajectoryOf(events), null, 2)}\n`);
    return 0;
  },
});
