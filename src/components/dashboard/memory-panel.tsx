"use client";
// An agent's memory journal (memory/journal.jsonl, written by memoryHook()): the newest turns with
// their status, message, reply and token usage, each linked to its session; how to turn memory on
// when there is no journal yet.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import type { MemoryEntry } from "@/server/host-state/schema";
import { ageOf } from "./age-of";

const shownEntries = 20;

/** A journal value as one line of text, cut after `max` characters. */
function clipped(value: MemoryEntry["result"], max = 160): string {
  if (value === null) return "—";
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function tokens(usage: MemoryEntry["usage"]): string {
  if (!usage) return "—";
  const cached = usage.cacheReadTokens + usage.cacheWriteTokens;
  return `${usage.inputTokens.toLocaleString()} in · ${usage.outputTokens.toLocaleString()} out${
    cached > 0 ? ` · ${cached.toLocaleString()} cache` : ""
  }`;
}

function MemoryOff() {
  return (
    <div data-testid="memory-off">
      <EmptyState title="Memory is off for this agent">
        <p>
          Add <code className="font-mono">bot/hooks/memory.ts</code> to the agent folder and upload a new version:
        </p>
        <pre className="mx-auto mt-2 w-fit rounded-md bg-zinc-100 px-3 py-2 text-left font-mono text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
          {'import { memoryHook } from "agentfold/memory";\n\nexport default memoryHook();'}
        </pre>
        <p className="mt-2">
          and a <code className="font-mono">## Memory</code> section in{" "}
          <code className="font-mono">instructions.md</code> telling the model to read{" "}
          <code className="font-mono">memory/journal.jsonl</code> (<code className="font-mono">agentfold init</code>{" "}
          scaffolds both). Every finished or failed turn then adds an entry here.
        </p>
      </EmptyState>
    </div>
  );
}

function EntryRow({ entry, slug }: { entry: MemoryEntry; slug: string }) {
  return (
    <tr className="align-top" data-testid="memory-entry" data-session-id={entry.sessionId}>
      <td className="whitespace-nowrap py-2 pr-3 text-zinc-500" title={new Date(entry.at).toLocaleString()}>
        {ageOf(entry.at)} ago
      </td>
      <td className="py-2 pr-3">
        <Badge tone={entry.status === "completed" ? "good" : "bad"}>{entry.status}</Badge>
      </td>
      <td className="max-w-xs py-2 pr-3" data-testid="memory-message">
        {entry.title ? <span className="block text-xs font-medium text-zinc-500">{entry.title}</span> : null}
        {clipped(entry.userMessage)}
      </td>
      <td className="max-w-sm py-2 pr-3 text-zinc-600 dark:text-zinc-400" data-testid="memory-result">
        {clipped(entry.result)}
      </td>
      <td className="whitespace-nowrap py-2 pr-3 font-mono text-xs text-zinc-500" data-testid="memory-usage">
        {tokens(entry.usage)}
      </td>
      <td className="whitespace-nowrap py-2">
        <Link
          className="underline"
          href={`/${slug}/playground?sessionId=${encodeURIComponent(entry.sessionId)}`}
          data-testid="memory-session"
        >
          session
        </Link>
      </td>
    </tr>
  );
}

/** hasMemoryHook: the active version has a hook named `memory` (hooks/memory.ts). */
export function MemoryPanel({
  teamSlug,
  slug,
  hasMemoryHook,
}: {
  teamSlug: string;
  slug: string;
  hasMemoryHook: boolean;
}) {
  const trpc = useTRPC();
  const memory = useQuery({
    ...trpc["host-state"].memory.queryOptions({ teamSlug, slug, limit: shownEntries }),
    refetchInterval: 10_000,
  });
  const data = memory.data;
  return (
    <Card aria-label="Memory" data-testid="memory">
      <h2 className="font-semibold">Memory</h2>
      <p className="mt-1 text-sm text-zinc-500">
        The last turns in <code className="font-mono">memory/journal.jsonl</code>, newest first: the history every
        session of this agent can read.
      </p>
      {memory.error ? (
        <div className="mt-2">
          <ErrorNote>{errorMessage(memory.error)}</ErrorNote>
        </div>
      ) : null}
      {data && !data.hasJournal && !hasMemoryHook ? (
        <div className="mt-3">
          <MemoryOff />
        </div>
      ) : null}
      {data && data.entries.length === 0 && (data.hasJournal || hasMemoryHook) ? (
        <p className="mt-3 text-sm text-zinc-400" data-testid="memory-empty">
          No entries yet: the memory hook adds one when a turn ends.
        </p>
      ) : null}
      {data && data.entries.length > 0 ? (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="memory-entries">
            <thead className="text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="py-1 pr-3 font-semibold">When</th>
                <th className="py-1 pr-3 font-semibold">Status</th>
                <th className="py-1 pr-3 font-semibold">Message</th>
                <th className="py-1 pr-3 font-semibold">Reply</th>
                <th className="py-1 pr-3 font-semibold">Tokens</th>
                <th className="py-1 font-semibold">
                  <span className="sr-only">Session</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {data.entries.map((entry) => (
                <EntryRow key={`${entry.sessionId}-${entry.at}`} entry={entry} slug={slug} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {data && data.skipped > 0 ? (
        <p className="mt-2 text-xs text-amber-700 dark:text-amber-300" data-testid="memory-skipped">
          {data.skipped === 1 ? "1 line is" : `${data.skipped} lines are`} not a journal entry and{" "}
          {data.skipped === 1 ? "is" : "are"} left out.
        </p>
      ) : null}
    </Card>
  );
}
