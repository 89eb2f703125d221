"use client";
// Upload a new agent or version: drop a .zip / .tar.gz or a folder (or pick one), watch the
// upload's progress, read the validation diagnostics, then activate.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input } from "@/components/ui/field";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { fromArchiveFile, fromDrop, fromFolderFiles, type Picked } from "./collect-files";
import { DiagnosticsList } from "./diagnostics-list";
import { uploadArchive, type UploadedVersion } from "./upload-request";

export function UploadAgent({ teamSlug, fixedSlug }: { teamSlug: string; fixedSlug?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const folderInput = useRef<HTMLInputElement>(null);
  const archiveInput = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [slug, setSlug] = useState(fixedSlug ?? "");
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<UploadedVersion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isOver, setOver] = useState(false);
  const activate = useMutation(
    trpc.agents.activate.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }),
  );

  async function choose(load: () => Promise<Picked> | Picked) {
    setError(null);
    setUploaded(null);
    try {
      const next = await load();
      setPicked(next);
      if (!fixedSlug) setSlug(next.suggestedSlug);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  async function upload() {
    if (!picked) return;
    setError(null);
    setProgress(0);
    try {
      const version = await uploadArchive({ slug, teamSlug, archive: picked.archive, onProgress: setProgress });
      setUploaded(version);
      setPicked(null);
      await queryClient.invalidateQueries();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setProgress(null);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    void choose(() => fromDrop(event.dataTransfer));
  }

  return (
    <Card aria-label="Upload an agent" data-testid="upload-panel">
      <h2 className="font-semibold">{fixedSlug ? "Upload a new version" : "Upload an agent"}</h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the file input inside is the keyboard path. */}
      <div
        onDragOver={(event) => (event.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="dropzone"
        className={cn(
          "mt-3 rounded-lg border-2 border-dashed p-6 text-center text-sm",
          isOver ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950" : "border-zinc-300 dark:border-zinc-700",
        )}
      >
        <p>Drop an agent folder, a .zip or a .tar.gz here, or</p>
        <div className="mt-3 flex justify-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => folderInput.current?.click()}>
            Choose a folder
          </Button>
          <Button variant="secondary" size="sm" onClick={() => archiveInput.current?.click()}>
            Choose an archive
          </Button>
        </div>
        <input
          ref={folderInput}
          type="file"
          aria-label="Agent folder"
          data-testid="folder-input"
          className="hidden"
          {...{ webkitdirectory: "", directory: "" }}
          onChange={(event) => event.target.files && void choose(() => fromFolderFiles([...event.target.files!]))}
        />
        <input
          ref={archiveInput}
          type="file"
          aria-label="Agent archive"
          data-testid="archive-input"
          accept=".zip,.tar.gz,.tgz"
          className="hidden"
          onChange={(event) => event.target.files?.[0] && void choose(() => fromArchiveFile(event.target.files![0]!))}
        />
      </div>
      {picked ? (
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <p className="w-full text-sm text-zinc-600 dark:text-zinc-400" data-testid="picked">
            Ready to upload: {picked.description}
          </p>
          {fixedSlug ? null : (
            <div className="min-w-48 flex-1">
              <Field label="Agent slug" hint="Its URL: /<slug>/playground and /<slug>/v1.">
                <Input value={slug} onChange={(event) => setSlug(event.target.value)} data-testid="upload-slug" />
              </Field>
            </div>
          )}
          <Button onClick={upload} disabled={progress !== null || !slug} data-testid="upload-submit">
            Upload
          </Button>
        </div>
      ) : null}
      {progress !== null ? (
        <div className="mt-4" aria-live="polite">
          <progress
            className="h-2 w-full accent-indigo-600"
            max={1}
            value={progress}
            aria-label="Upload progress"
            data-testid="upload-progress"
          />
          <p className="mt-1 text-xs text-zinc-500">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Validating the agent…"}
          </p>
        </div>
      ) : null}
      {error ? (
        <div className="mt-4">
          <ErrorNote testId="upload-error">{error}</ErrorNote>
        </div>
      ) : null}
      {uploaded ? (
        <div className="mt-4 space-y-3" data-testid="upload-result" data-status={uploaded.status}>
          <p className="text-sm font-medium">
            {uploaded.slug} version {uploaded.number}:{" "}
            {uploaded.status === "ready" ? "valid" : "has errors and cannot be activated"} ({uploaded.fileCount} files)
          </p>
          <DiagnosticsList diagnostics={uploaded.diagnostics} />
          {uploaded.status === "ready" ? (
            <Button
              onClick={() =>
                activate.mutate(
                  { teamSlug, slug: uploaded.slug, number: uploaded.number },
                  { onSuccess: () => setUploaded({ ...uploaded, isActive: true }) },
                )
              }
              disabled={uploaded.isActive || activate.isPending}
              data-testid="activate-uploaded"
            >
              {uploaded.isActive ? `Version ${uploaded.number} is active` : `Activate version ${uploaded.number}`}
            </Button>
          ) : null}
          {activate.error ? <ErrorNote>{errorMessage(activate.error)}</ErrorNote> : null}
        </div>
      ) : null}
    </Card>
  );
}
