"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isAtLeast } from "@/shared/roles";
import { useTeam } from "@/components/shell/app-shell";
import { useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { errorMessage } from "@/components/trpc/provider";
import { UploadAgent } from "./upload-agent";

const surfaceLabels = ["tools", "skills", "subagents", "hooks", "channels", "schedules"] as const;

export function AgentsPage({ teamSlug }: { teamSlug: string }) {
  const trpc = useTRPC();
  const team = useTeam(teamSlug);
  const agents = useQuery(trpc.agents.list.queryOptions({ teamSlug }));
  const canDeploy = team !== undefined && isAtLeast(team.role, "admin");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Agents</h1>
      {canDeploy ? <UploadAgent teamSlug={teamSlug} /> : null}
      {agents.error ? <ErrorNote>{errorMessage(agents.error)}</ErrorNote> : null}
      {agents.data?.length === 0 ? (
        <EmptyState title="No agents yet">
          {canDeploy
            ? "Upload an agent folder above, or deploy one with `agentfold deploy --dir ./my-agent`."
            : "Ask a team admin to upload one."}
        </EmptyState>
      ) : null}
      <ul className="grid gap-4 sm:grid-cols-2" data-testid="agent-list">
        {agents.data?.map((agent) => (
          <li key={agent.slug}>
            <Card className="h-full" data-testid={`agent-${agent.slug}`}>
              <div className="flex items-start justify-between gap-3">
                <div>
                  <Link href={`/teams/${teamSlug}/agents/${agent.slug}`} className="font-semibold hover:underline">
                    {agent.name}
                  </Link>
                  <p className="font-mono text-xs text-zinc-500">/{agent.slug}</p>
                </div>
                {agent.status === "active" ? (
                  <Badge tone="good">v{agent.activeVersion} active</Badge>
                ) : (
                  <Badge tone="warn">no active version</Badge>
                )}
              </div>
              {agent.description ? (
                <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{agent.description}</p>
              ) : null}
              <p className="mt-3 text-xs text-zinc-500">
                {surfaceLabels
                  .filter((label) => agent.surface[label] > 0)
                  .map((label) => `${agent.surface[label]} ${label}`)
                  .join(" · ") || "no tools or skills"}
              </p>
              <div className="mt-4 flex gap-3 text-sm">
                <Link
                  className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
                  href={`/${agent.slug}/playground`}
                >
                  Open playground
                </Link>
                <Link
                  className="text-zinc-600 hover:underline dark:text-zinc-400"
                  href={`/teams/${teamSlug}/agents/${agent.slug}`}
                >
                  Versions ({agent.versionCount})
                </Link>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
