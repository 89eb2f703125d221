"use client";
// Home for a signed-in person: their agents (every team) with playground links, and their most
// recent sessions.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Card, EmptyState } from "@/components/ui/card";

export function HomeDashboard() {
  const trpc = useTRPC();
  const teams = useQuery(trpc.teams.mine.queryOptions());
  const mine = useQuery(trpc.agents.mine.queryOptions());
  const recent = useQuery(trpc.sessions.recent.queryOptions({ limit: 8 }));
  const agents = mine.data ?? [];
  const firstTeam = teams.data?.[0];
  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <section aria-label="Your agents" className="space-y-3">
        <h2 className="text-lg font-semibold">Your agents</h2>
        {teams.data && mine.data && agents.length === 0 ? (
          <EmptyState title="No agents yet">
            {firstTeam ? (
              <Link className="underline" href={`/teams/${firstTeam.slug}/agents`}>
                Upload an agent folder
              </Link>
            ) : (
              "Join a team to see its agents."
            )}
          </EmptyState>
        ) : null}
        <ul className="grid gap-3 sm:grid-cols-2" data-testid="home-agents">
          {agents.map((agent) => (
            <li key={agent.slug}>
              <Card className="h-full">
                <div className="flex items-start justify-between gap-2">
                  <Link
                    href={`/${agent.slug}/playground`}
                    className="font-semibold hover:underline"
                    data-testid={`home-agent-${agent.slug}`}
                  >
                    {agent.name}
                  </Link>
                  {agent.status === "active" ? (
                    <Badge tone="good">v{agent.activeVersion}</Badge>
                  ) : (
                    <Badge tone="warn">inactive</Badge>
                  )}
                </div>
                <p className="mt-1 text-xs text-zinc-500">
                  <span className="font-mono">/{agent.slug}</span> · {agent.team.name} ·{" "}
                  <Link className="underline" href={`/teams/${agent.team.slug}/agents/${agent.slug}`}>
                    versions
                  </Link>
                </p>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Recent sessions" className="space-y-3">
        <h2 className="text-lg font-semibold">Recent sessions</h2>
        {recent.data?.length === 0 ? (
          <p className="text-sm text-zinc-500">Sessions you start in a playground show up here.</p>
        ) : null}
        <ul className="space-y-2" data-testid="home-sessions">
          {recent.data?.map((session) => (
            <li key={session.id}>
              <Link
                href={`/${session.agentSlug}/playground?sessionId=${session.id}`}
                className="block rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm hover:border-indigo-400 dark:border-zinc-800 dark:bg-zinc-900"
              >
                <span className="font-medium">{session.title ?? session.id}</span>
                <span className="block text-xs text-zinc-500">
                  {session.agentName} · {session.status} · {new Date(session.updatedAt).toLocaleString()}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
