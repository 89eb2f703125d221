"use client";
// Two runs side by side: per case what changed (passed → failed and the like), then each
// iteration's trajectory in either run: its tool calls and the time its turns took.
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import type { ApiClient } from "@/components/playground/api-client";
import { formatDuration } from "@/components/playground/eval-run-model";
import { Badge } from "@/components/ui/badge";
import { ErrorNote } from "@/components/ui/card";
import {
  type CaseChange,
  type CaseSide,
  compareRuns,
  formatToolCalls,
  joinTrajectories,
  outcomeLabel,
  type Trajectory,
} from "./eval-history-model";
import { maxComparedSessions, type SessionTrajectory, useRunResults, useTrajectories } from "./use-eval-comparison";

const directionTone = { worse: "bad", better: "good", added: "info", removed: "neutral", same: "neutral" } as const;
const directionText = { worse: "worse", better: "better", added: "new", removed: "gone", same: "same" } as const;

export function RunComparison({ client, slug, a, b }: { client: ApiClient; slug: string; a: EvalRun; b: EvalRun }) {
  const before = useRunResults(client, a.id);
  const after = useRunResults(client, b.id);
  const sessionIds = [...(before.results ?? []), ...(after.results ?? [])].flatMap((result) => result.sessionIds);
  const trajectories = useTrajectories(client, sessionIds);
  const error = before.error ?? after.error;
  if (error) return <ErrorNote testId="eval-compare-error">{error}</ErrorNote>;
  if (!before.results || !after.results) return <p className="text-sm text-zinc-500">Loading both runs…</p>;
  const rows = compareRuns(before.results, after.results);
  return (
    <div data-testid="eval-compare" className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th className="py-1 pr-3 font-medium">Case</th>
            <th className="py-1 pr-3 font-medium">
              A: v{a.versionNumber ?? "?"}, {new Date(a.createdAt).toLocaleString()}
            </th>
            <th className="py-1 pr-3 font-medium">
              B: v{b.versionNumber ?? "?"}, {new Date(b.createdAt).toLocaleString()}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {rows.map((row) => (
            <ChangeRow key={row.caseId} row={row} slug={slug} trajectories={trajectories} />
          ))}
        </tbody>
      </table>
      {sessionIds.length > maxComparedSessions ? (
        <p className="mt-2 text-xs text-zinc-500">
          Trajectories of the first {maxComparedSessions} of {sessionIds.length} sessions are shown.
        </p>
      ) : null}
    </div>
  );
}

function ChangeRow({
  row,
  slug,
  trajectories,
}: {
  row: CaseChange;
  slug: string;
  trajectories: Record<string, SessionTrajectory>;
}) {
  return (
    <tr data-testid="eval-compare-case" data-case-id={row.caseId} data-direction={row.direction} className="align-top">
      <td className="py-2 pr-3">
        <code className="font-mono text-xs font-medium">{row.caseId}</code>
        <div className="mt-1">
          <Badge tone={directionTone[row.direction]}>{directionText[row.direction]}</Badge>
        </div>
      </td>
      {[row.a, row.b].map((side, i) => (
        <td key={i === 0 ? "a" : "b"} className="py-2 pr-3" data-testid={`eval-compare-${i === 0 ? "a" : "b"}`}>
          <SideCell side={side} slug={slug} trajectories={trajectories} />
        </td>
      ))}
    </tr>
  );
}

function SideCell({
  side,
  slug,
  trajectories,
}: {
  side: CaseSide | undefined;
  slug: string;
  trajectories: Record<string, SessionTrajectory>;
}) {
  return (
    <div className="space-y-1">
      <p data-testid="eval-compare-outcome" className="text-xs font-medium">
        {outcomeLabel(side)}
      </p>
      {side?.results.map((result) => (
        <IterationTrajectory
          key={result.iteration}
          result={result}
          slug={slug}
          isOneOfMany={side.total > 1}
          trajectories={trajectories}
        />
      ))}
    </div>
  );
}

function IterationTrajectory({
  result,
  slug,
  isOneOfMany,
  trajectories,
}: {
  result: EvalResult;
  slug: string;
  isOneOfMany: boolean;
  trajectories: Record<string, SessionTrajectory>;
}) {
  const read = result.sessionIds.map((id) => trajectories[id]);
  const failed = read.find((t): t is { error: string } => t !== undefined && "error" in t);
  const isLoaded = read.every((t) => t !== undefined);
  const joined = isLoaded && !failed ? joinTrajectories(read as Trajectory[]) : undefined;
  return (
    <div
      data-testid="eval-trajectory"
      data-iteration={result.iteration}
      className="text-xs text-zinc-600 dark:text-zinc-400"
    >
      {isOneOfMany ? (
        <span className="text-zinc-400">
          #{result.iteration} {result.status} ·{" "}
        </span>
      ) : null}
      {failed ? (
        <span>{failed.error}</span>
      ) : joined ? (
        <>
          <span data-testid="eval-trajectory-tools">{formatToolCalls(joined.toolCalls)}</span>
          {" · "}
          <span data-testid="eval-trajectory-time">{formatDuration(joined.wallMs)}</span>
        </>
      ) : result.sessionIds.length ? (
        <span>reading its sessions…</span>
      ) : (
        <span>no session</span>
      )}
      {result.sessionIds.map((sessionId, i) => (
        <a
          key={sessionId}
          href={`/${encodeURIComponent(slug)}/playground?sessionId=${encodeURIComponent(sessionId)}`}
          className="ml-1.5 text-indigo-600 underline dark:text-indigo-400"
          aria-label={`Open session ${i + 1} of ${result.caseId} #${result.iteration}`}
        >
          {result.sessionIds.length > 1 ? `s${i + 1}` : "session"}
        </a>
      ))}
    </div>
  );
}
