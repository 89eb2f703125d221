// A session as a draft eval (docs/dashboard.md, "Evals"): its person's messages sent again in
// order with `t.send`, then what the session did, asserted: the turns succeeded, each tool it
// called was called, and its last reply still says a short fragment of what it said.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { SessionEvent } from "@/agents/sdk/events";
import { AppError } from "@/server/errors";
import { readEvents } from "@/server/events/read-events";
import { findSession } from "@/server/sessions/get-owned-session";

export type EvalDraft = { path: string; source: string };

export const evalDraftSchema = z.object({
  ok: z.literal(true),
  path: z.string().regex(/^evals\/[a-z0-9-]+\.eval\.ts$/),
  source: z.string(),
});

const pageSize = 5_000;
// A draft replays what a person typed: a log past this is a soak, not something to lock in.
const maxEvents = 100_000;

export async function draftEvalFromSession(options: {
  db: PrismaClient;
  agentId: string;
  sessionId: string;
}): Promise<EvalDraft> {
  const { db, agentId, sessionId } = options;
  const session = await findSession(db, agentId, sessionId);
  if (!session) throw new AppError("not_found", `no session ${sessionId}`);
  const events: SessionEvent[] = [];
  for (let fromIndex = 0; events.length < maxEvents; ) {
    const page = await readEvents({ db, sessionId, fromIndex, limit: pageSize });
    events.push(...page);
    if (page.length < pageSize) break;
    fromIndex = page.at(-1)!.index + 1;
  }
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: { activeVersion: { select: { manifest: true } } },
  });
  const evals = (agent?.activeVersion?.manifest as Partial<AgentManifest> | null)?.evals ?? [];
  const takenNames = new Set(evals.map((item) => item.id.split("/")[0]!));
  return buildEvalDraft({ sessionId, title: session.title, events, takenNames });
}

type Fragment = { kind: "text"; text: string } | { kind: "regex"; source: string };

/** The draft's file and source for a session's events; pure, so its tests need no database. */
export function buildEvalDraft(input: {
  sessionId: string;
  title: string | null;
  events: readonly SessionEvent[];
  /** Top-level eval names the active version has: a draft saved beside them must not replace one. */
  takenNames?: ReadonlySet<string>;
}): EvalDraft {
  const { sessionId, events } = input;
  const started = events.find((event) => event.type === "session.started");
  const title = input.title ?? (started?.type === "session.started" ? started.data.title : undefined) ?? null;
  const messages = events.filter((event) => event.type === "message.received");
  if (messages.length === 0) throw new AppError("conflict", `${sessionId} has no messages to replay yet`);
  const isDryRun = started?.type === "session.started" && started.data.dryRun === true;
  const failure = events.findLast((event) => event.type === "turn.failed");
  const fragment = replyFragment(lastReply(events, messages.at(-1)!.turnId));

  const sends = messages.map((message, i) => {
    const options = i === 0 && isDryRun ? ", { dryRun: true }" : "";
    return `    await t.send(${stringLiteral(message.data.text)}${options});`;
  });
  const checks = [
    ...(failure?.type === "turn.failed"
      ? [`    // A turn of ${sessionId} failed (${commentText(failure.data.message)}): this expects it to succeed.`]
      : []),
    "    t.succeeded();",
    ...calledTools(events).map((name) => `    t.calledTool(${stringLiteral(name)});`),
    ...(fragment ? [`    t.check(t.reply, includes(${fragmentLiteral(fragment)}));`] : []),
  ];
  const count = messages.length === 1 ? "its message" : `its ${messages.length} messages`;
  const source = [
    `import { ${fragment ? "defineEval, includes" : "defineEval"} } from "agentfold/evals";`,
    "",
    `// Drafted from ${sessionId}${title ? ` (${commentText(title)})` : ""}: ${count} again, and what it did.`,
    ...(fragment
      ? ["// A real model words its reply differently each run: keep the fragment to what must be said."]
      : []),
    "export default defineEval({",
    `  description: ${stringLiteral(`Replays ${sessionId}${title ? `: ${title}` : ""}`)},`,
    "  test: async (t) => {",
    ...sends,
    ...checks,
    "  },",
    "});",
    "",
  ].join("\n");
  const name = draftName(title ?? messages[0]!.data.text, sessionId);
  const unique = input.takenNames?.has(name) ? `${name}-${sessionId.slice(4, 12).toLowerCase()}` : name;
  return { path: `evals/${unique}.eval.ts`, source };
}

/** Tool names in the order first called; a subagent's own calls are its business, its `task` call is here. */
function calledTools(events: readonly SessionEvent[]): string[] {
  const names = events.flatMap((event) =>
    event.type === "actions.requested"
      ? event.data.calls.filter((call) => call.parentCallId === undefined).map((call) => call.toolName)
      : [],
  );
  return [...new Set(names)];
}

/** What `t.reply` will be compared with: the last message of the last turn. */
function lastReply(events: readonly SessionEvent[], lastTurnId: string | undefined): string {
  const replies = events.filter(
    (event) => event.type === "message.completed" && (lastTurnId === undefined || event.turnId === lastTurnId),
  );
  const last = replies.at(-1);
  return last?.type === "message.completed" ? last.data.text : "";
}

const maxFragmentChars = 48;

/**
 * A short piece of the reply that is also its substring: the first run of plain words (markdown
 * marks split runs, and line ends, which a regex literal cannot hold), cut at a word. Digits (ids, amounts, dates) change between runs, so a piece
 * with digits becomes a regex that lets them vary.
 */
export function replyFragment(reply: string): Fragment | undefined {
  const runs = reply.split(/[\n\r\u2028\u2029*_`#>|[\]()]+/).map((run) => run.trim());
  const run = runs.find((text) => (text.match(/[\p{L}]{2,}/gu) ?? []).length >= 2) ?? runs.find((text) => text);
  if (!run) return undefined;
  const text = cutAtWord(run.replace(/^[-+\d.)\s]*(?=\p{L})/u, ""), maxFragmentChars);
  if (!/\d/.test(text)) return { kind: "text", text };
  return { kind: "regex", source: text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&").replace(/\d+/g, "\\d+") };
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max);
  return (space > max / 2 ? text.slice(0, space) : text.slice(0, max)).trim();
}

function fragmentLiteral(fragment: Fragment): string {
  return fragment.kind === "text" ? stringLiteral(fragment.text) : `/${fragment.source}/`;
}

/** A string's literal; the two line separators JSON leaves raw are escaped, for editors that break lines there. */
function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function commentText(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** A file name from the title or first message: a few lowercase words, else the session's id. */
export function draftName(text: string, sessionId: string): string {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let name = "";
  for (const word of words.slice(0, 6)) {
    if (name && name.length + word.length + 1 > 40) break;
    name = name ? `${name}-${word}` : word.slice(0, 40);
  }
  // evals/index.eval.ts takes its id from its directory, which a top-level draft has none of.
  if (!name || name === "index") return `session-${sessionId.slice(4, 12).toLowerCase()}`;
  return name;
}
