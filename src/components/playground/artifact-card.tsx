"use client";
import { Badge } from "@/components/ui/badge";
import { previewOf } from "./artifact-data";
import { ArtifactDataView } from "./artifact-data-view";
import type { TaggedArtifact } from "./transcript";

/** A record tagged in the session, inline where it was tagged; opens to show its data. */
export function ArtifactCard({ artifact }: { artifact: TaggedArtifact }) {
  return (
    <div
      data-testid="artifact-card"
      data-kind={artifact.kind}
      data-key={artifact.key}
      className="rounded-lg border border-indigo-200 bg-indigo-50/40 px-3 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/30"
    >
      <details>
        <summary className="flex cursor-pointer items-center gap-2">
          <Badge tone="info">{artifact.kind}</Badge>
          <span className="shrink-0 font-medium" data-testid="artifact-card-title">
            {artifact.title ?? artifact.key}
          </span>
          {artifact.title ? <code className="shrink-0 font-mono text-xs text-zinc-500">{artifact.key}</code> : null}
          <span className="min-w-0 truncate text-xs text-zinc-500" data-testid="artifact-card-preview">
            {previewOf(artifact.data)}
          </span>
        </summary>
        <div className="mt-2" data-testid="artifact-card-data">
          <ArtifactDataView data={artifact.data} />
        </div>
      </details>
    </div>
  );
}
