"use client";
// One agent: its surface at a glance, and every version with who uploaded it, when, and what
// validation found; activate any valid version (a rollback is activating an older one).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { isAtLeast } from "@/shared/roles";
import { useTeam } from "@/components/shell/app-shell";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { AgentFilesPanel } from "./agent-files-panel";
import { ChannelRoutesPanel } from "./channel-routes-panel";
import { DiagnosticsList } from "./diagnostics-list";
import { ConnectionsCard } from "./connections-card";
import { EvalHistoryCard } from "./eval-history-card";
import { LogsCard } from "./logs-card";
import { MemoryPanel } from "./memory-panel";
import { SchedulesPanel } from "./schedules-panel";
import { SecretsPanel } from "./secrets-panel";
import { SlackSetupCard } from "./slack-setup-card";
import { UploadAgent } from "./upload-agent";

type SurfaceItem = { name: string; description: string; effect?: string; needsApproval?: boolean };

function SurfaceGroup({ title, items }: { title: string; items: SurfaceItem[] }) {
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
        {title} <span className="font-normal">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-400">none</p>
      ) : (
        <ul className="mt-1 space-y-1">
          {items.map((item) => (
            <li key={item.name} className="text-sm">
              <code className="font-mono font-medium">{item.name}</code>
              {item.effect ? (
                <Badge className="ml-1.5" tone={item.effect === "write" ? "warn" : "neutral"}>
                  {item.effect}
                </Badge>
              ) : null}
              {item.needsApproval ? (
                <Badge className="ml-1" tone="info">
                  approval
                </Badge>
              ) : null}
              {item.description ? <span className="ml-1.5 text-zinc-500">{item.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function AgentPage({ teamSlug, slug }: { teamSlug: string; slug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const team = useTeam(teamSlug);
  const agent = useQuery(trpc.agents.get.queryOptions({ teamSlug, slug }));
  const activate = useMutation(
    trpc.agents.activate.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }),
  );
  const canDeploy = team !== undefined && isAtLeast(team.role, "admin");
  // The journal quotes chat sessions, which viewers may not read (src/server/host-state/router.ts).
  const canReadMemory = team !== undefined && isAtLeast(team.role, "member");
  if (agent.error) return <ErrorNote>{errorMessage(agent.error)}</ErrorNote>;
  if (!agent.data) return <p className="text-sm text-zinc-500">Loading…</p>;
  const { surface, versions } = agent.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="agent-title">
            {agent.data.name}
          </h1>
          <p className="font-mono text-sm text-zinc-500">/{slug}</p>
        </div>
        <div className="flex gap-2">
          <Link
            href={`/teams/${teamSlug}/agents/${slug}/artifacts`}
            className="rounded-md border border-zinc-300 bg-white px-3.5 py-2 text-sm font-medium text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
            data-testid="agent-artifacts"
          >
            Artifacts
          </Link>
          <Link
            href={`/${slug}/playground`}
            className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500"
          >
            Open playground
          </Link>
        </div>
      </div>
      <Card aria-label="Surface" data-testid="surface">
        <h2 className="font-semibold">
          Surface{" "}
          {surface?.model ? (
            <span className="ml-2 text-sm font-normal text-zinc-500">model {surface.model}</span>
          ) : null}
        </h2>
        {surface ? (
          <div className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            <SurfaceGroup title="Tools" items={surface.tools} />
            <SurfaceGroup title="Skills" items={surface.skills} />
            <SurfaceGroup title="Subagents" items={surface.subagents} />
            <SurfaceGroup title="Hooks" items={surface.hooks} />
            <SurfaceGroup title="Channels" items={surface.channels} />
            <SurfaceGroup title="Schedules" items={surface.schedules} />
          </div>
        ) : (
          <p className="mt-2 text-sm text-zinc-500">No active version: activate a valid version below.</p>
        )}
      </Card>
      {surface ? <SchedulesPanel slug={slug} canManage={canDeploy} /> : null}
      {/* Calling a route is a member's act (channels:invoke), like reading the journal. */}
      {canReadMemory && surface && surface.channels.length > 0 ? <ChannelRoutesPanel slug={slug} /> : null}
      {canReadMemory ? (
        <MemoryPanel
          teamSlug={teamSlug}
          slug={slug}
          hasMemoryHook={surface?.hooks.some((hook) => hook.name === "memory") ?? false}
        />
      ) : null}
      {canReadMemory ? <AgentFilesPanel teamSlug={teamSlug} slug={slug} /> : null}
      {surface ? <ConnectionsCard slug={slug} canManage={canDeploy} /> : null}
      {/* The doctor uses the secrets' values, so it is for those who manage them (admins). */}
      {canReadMemory && surface ? <SlackSetupCard teamSlug={teamSlug} slug={slug} canRunDoctor={canDeploy} /> : null}
      {surface ? <EvalHistoryCard slug={slug} /> : null}
      <LogsCard slug={slug} />
      {canDeploy ? <SecretsPanel teamSlug={teamSlug} slug={slug} /> : null}
      {canDeploy ? <UploadAgent teamSlug={teamSlug} fixedSlug={slug} /> : null}
      <Card aria-label="Versions">
        <h2 className="font-semibold">Versions</h2>
        {activate.error ? (
          <div className="mt-2">
            <ErrorNote>{errorMessage(activate.error)}</ErrorNote>
          </div>
        ) : null}
        <ol className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="versions">
          {versions.map((version) => (
            <li key={version.id} className="py-3" data-testid={`version-${version.number}`}>
              <div className="flex flex-wrap items-center gap-3">
                <span className="font-medium">v{version.number}</span>
                {version.isActive ? <Badge tone="good">active</Badge> : null}
                {version.status === "invalid" ? <Badge tone="bad">invalid</Badge> : null}
                <span className="text-sm text-zinc-500">
                  by {version.createdBy} · {new Date(version.createdAt).toLocaleString()} · {version.fileCount} files
                </span>
                {canDeploy && !version.isActive && version.status === "ready" ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    className="ml-auto"
                    disabled={activate.isPending}
                    onClick={() => activate.mutate({ teamSlug, slug, number: version.number })}
                  >
                    {versions.find((v) => v.isActive && v.number > version.number) ? "Roll back to this" : "Activate"}
                  </Button>
                ) : null}
              </div>
              {version.diagnostics.length > 0 ? (
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm text-zinc-600 dark:text-zinc-400">
                    {version.diagnostics.length} diagnostics
                  </summary>
                  <div className="mt-2">
                    <DiagnosticsList diagnostics={version.diagnostics} />
                  </div>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
