"use client";
// "Save as eval": the open session as a draft eval (GET …/session/:id/eval-draft), to copy or
// download into the agent folder's evals/ and deploy. Nothing is written on the server.
import { useState } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import type { ApiClient } from "./api-client";

type Draft = { path: string; source: string };

export function EvalDraftButton({ client, sessionId }: { client: ApiClient; sessionId: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const [draft, setDraft] = useState<{ sessionId: string; draft?: Draft; error?: string }>();

  async function open() {
    setIsOpen(true);
    // Asked each time: the session may have had more turns since the last draft.
    setDraft({ sessionId });
    try {
      const answer = await client.json<Draft>("GET", `/session/${encodeURIComponent(sessionId)}/eval-draft`);
      setDraft({ sessionId, draft: { path: answer.path, source: answer.source } });
    } catch (error) {
      setDraft({ sessionId, error: error instanceof Error ? error.message : String(error) });
    }
  }

  const shown = draft?.sessionId === sessionId ? draft : undefined;
  return (
    <>
      <Button size="sm" variant="secondary" data-testid="save-as-eval" onClick={open}>
        Save as eval
      </Button>
      <Dialog open={isOpen} onClose={() => setIsOpen(false)} title="Save as eval" size="lg">
        <div data-testid="eval-draft" className="space-y-3">
          {shown?.error ? <ErrorNote testId="eval-draft-error">{shown.error}</ErrorNote> : null}
          {!shown?.draft && !shown?.error ? <p className="text-sm text-zinc-500">Drafting…</p> : null}
          {shown?.draft ? <DraftBody draft={shown.draft} /> : null}
        </div>
      </Dialog>
    </>
  );
}

function DraftBody({ draft }: { draft: Draft }) {
  return (
    <>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Save it as <code data-testid="eval-draft-path">{draft.path}</code> in the agent folder and deploy: the Evals tab
        then runs it. It sends this session's messages again and checks what the agent did then; edit the checks to what
        must stay true.
      </p>
      <pre
        data-testid="eval-draft-source"
        className="max-h-[60vh] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950"
      >
        {draft.source}
      </pre>
      <div className="flex gap-2">
        <CopyButton text={draft.source} label="Copy" testId="eval-draft-copy" />
        <Button size="sm" variant="secondary" data-testid="eval-draft-download" onClick={() => download(draft)}>
          Download
        </Button>
      </div>
    </>
  );
}

function download(draft: Draft) {
  const url = URL.createObjectURL(new Blob([draft.source], { type: "text/typescript" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = draft.path.split("/").pop()!;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the URL can go on the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
