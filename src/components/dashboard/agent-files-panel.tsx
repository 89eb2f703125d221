"use client";
// The files an agent shares across its sessions (host.files with { scope: "deployment" }: the
// memory journal, an audit log …), the most recently changed first; a click shows one's text.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { ageOf } from "./age-of";

function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

function FileView({
  teamSlug,
  slug,
  path,
  onClose,
}: {
  teamSlug: string;
  slug: string;
  path: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const file = useQuery(trpc["host-state"].file.queryOptions({ teamSlug, slug, path }));
  return (
    <div className="mt-3 rounded-md border border-zinc-200 dark:border-zinc-800" data-testid="agent-file-view">
      <div className="flex items-center gap-3 border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
        <code className="font-mono font-medium">{path}</code>
        {file.data?.isTruncated ? (
          <span className="text-zinc-500" data-testid="agent-file-truncated">
            the first 64 KiB of {bytes(file.data.size)}
          </span>
        ) : null}
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose} data-testid="agent-file-close">
          Close
        </Button>
      </div>
      {file.error ? (
        <div className="p-3">
          <ErrorNote>{errorMessage(file.error)}</ErrorNote>
        </div>
      ) : !file.data ? (
        <p className="p-3 text-sm text-zinc-500">Loading…</p>
      ) : file.data.isBinary ? (
        <p className="p-3 text-sm text-zinc-500" data-testid="agent-file-binary">
          A binary file ({bytes(file.data.size)}): not shown.
        </p>
      ) : (
        <pre
          className="max-h-96 overflow-auto whitespace-pre-wrap break-words p-3 font-mono text-xs"
          data-testid="agent-file-text"
        >
          {file.data.text}
        </pre>
      )}
    </div>
  );
}

export function AgentFilesPanel({ teamSlug, slug }: { teamSlug: string; slug: string }) {
  const trpc = useTRPC();
  const files = useQuery({ ...trpc["host-state"].files.queryOptions({ teamSlug, slug }), refetchInterval: 10_000 });
  const [open, setOpen] = useState<string | null>(null);
  const data = files.data;
  return (
    <Card aria-label="Agent files" data-testid="agent-files">
      <h2 className="font-semibold">Agent files</h2>
      <p className="mt-1 text-sm text-zinc-500">
        What tools and hooks keep with <code className="font-mono">host.files</code> for every session (
        <code className="font-mono">{'{ scope: "deployment" }'}</code>), most recently changed first.
      </p>
      {files.error ? (
        <div className="mt-2">
          <ErrorNote>{errorMessage(files.error)}</ErrorNote>
        </div>
      ) : null}
      {data && data.files.length === 0 ? <p className="mt-3 text-sm text-zinc-400">No files yet.</p> : null}
      {data && data.files.length > 0 ? (
        <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="agent-file-list">
          {data.files.map((file) => (
            <li key={file.path} className="flex flex-wrap items-center gap-3 py-1.5 text-sm">
              <button
                type="button"
                className="font-mono font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                aria-pressed={open === file.path}
                onClick={() => setOpen(open === file.path ? null : file.path)}
                data-testid={`agent-file-${file.path}`}
              >
                {file.path}
              </button>
              <span className="ml-auto text-zinc-500">
                {bytes(file.size)} · changed {ageOf(file.updatedAt)} ago
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {data?.isTruncated ? (
        <p className="mt-2 text-xs text-zinc-500">Only the {data.files.length} most recently changed are listed.</p>
      ) : null}
      {open ? <FileView teamSlug={teamSlug} slug={slug} path={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
