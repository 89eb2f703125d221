"use client";
// The Trace tab: the open session's waterfall, or a saved `.ndjson` trace opened from disk and
// shown without any session or server. The session's log downloads as the same kind of file.
import { type ChangeEvent, useState } from "react";
import type { SessionEvent } from "@/agents/sdk/events";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { parseTraceFile, toNdjson } from "./trace-file";
import { TraceView } from "./trace-view";

type OpenFile = { name: string; events: SessionEvent[]; skipped: number; id: number };

export function TracePanel({ events, sessionId }: { events: readonly SessionEvent[]; sessionId?: string }) {
  const [file, setFile] = useState<OpenFile>();
  const [error, setError] = useState<string>();

  async function open(input: ChangeEvent<HTMLInputElement>) {
    const picked = input.target.files?.[0];
    // The same file picked again must load again.
    input.target.value = "";
    if (!picked) return;
    setError(undefined);
    try {
      const parsed = parseTraceFile(await picked.text());
      if (parsed.events.length === 0) {
        setError(`${picked.name} has no session events: expected one JSON event per line, as /events answers.`);
        return;
      }
      setFile({ name: picked.name, ...parsed, id: Date.now() });
    } catch {
      setError(`Could not read ${picked.name}. Pick the file again.`);
    }
  }

  return (
    <section id="trace-panel" data-testid="trace-panel" aria-label="Trace" className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <label className="inline-flex cursor-pointer items-center rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-800 focus-within:outline-2 focus-within:outline-indigo-500 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800">
          Open trace file
          <input
            type="file"
            accept=".ndjson,.jsonl,application/x-ndjson"
            className="sr-only"
            data-testid="trace-file-input"
            onChange={(input) => void open(input)}
          />
        </label>
        {sessionId && !file && events.length > 0 ? (
          <Button
            variant="secondary"
            size="sm"
            data-testid="trace-download"
            onClick={() => download(`${sessionId}.ndjson`, toNdjson(events))}
          >
            Download .ndjson
          </Button>
        ) : null}
      </div>
      {file ? (
        <div
          className="flex flex-wrap items-center gap-2 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-testid="trace-file-banner"
        >
          <span className="min-w-0 flex-1">
            Showing <strong className="break-all">{file.name}</strong>: {file.events.length} events
            {file.skipped ? `, ${file.skipped} lines that are not events skipped` : ""}.
          </span>
          <Button variant="secondary" size="sm" data-testid="trace-file-close" onClick={() => setFile(undefined)}>
            {sessionId ? "Back to the session" : "Close file"}
          </Button>
        </div>
      ) : null}
      {error ? (
        <div className="px-3 pt-2">
          <ErrorNote testId="trace-file-error">{error}</ErrorNote>
        </div>
      ) : null}
      <div className="min-h-0 flex-1 overflow-auto p-3">
        <TraceView
          key={file ? `file-${file.id}` : `session-${sessionId}`}
          events={file?.events ?? events}
          isLive={!file}
        />
      </div>
    </section>
  );
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the URL can go on the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
