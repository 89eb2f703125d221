"use client";
// An agent's schedules, from the same /v1 routes a script would use: the next run, the last run
// (with its session), and for admins Run now and Pause / Resume.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { createApiClient } from "@/components/playground/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { errorMessage } from "@/components/trpc/provider";

type Schedule = {
  name: string;
  cron?: string;
  mode: "markdown" | "run";
  paused: boolean;
  nextRunAt: string | null;
  lastRun: { sessionId: string | null; firedAt: string; manual: boolean; missed: number } | null;
};

export function SchedulesPanel({ slug, canManage }: { slug: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  // The sign-in cookie is the credential: no token.
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const key = ["schedules", slug];
  const schedules = useQuery({
    queryKey: key,
    queryFn: () => client.json<{ schedules: Schedule[] }>("GET", "/schedules").then((b) => b.schedules),
    refetchInterval: 10_000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const runNow = useMutation({
    mutationFn: (name: string) => client.json("POST", `/dev/schedules/${encodeURIComponent(name)}`),
    onSettled: refresh,
  });
  const setPaused = useMutation({
    mutationFn: ({ name, paused }: { name: string; paused: boolean }) =>
      client.json("PATCH", `/schedules/${encodeURIComponent(name)}`, { body: { paused } }),
    onSettled: refresh,
  });
  if (!schedules.data || schedules.data.length === 0) return null;
  const error = schedules.error ?? runNow.error ?? setPaused.error;
  return (
    <Card aria-label="Schedules" data-testid="schedules">
      <h2 className="font-semibold">Schedules</h2>
      {error ? (
        <div className="mt-2">
          <ErrorNote>{errorMessage(error)}</ErrorNote>
        </div>
      ) : null}
      <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
        {schedules.data.map((schedule) => (
          <li
            key={schedule.name}
            className="flex flex-wrap items-center gap-3 py-3 text-sm"
            data-testid={`schedule-${schedule.name}`}
          >
            <code className="font-mono font-medium">{schedule.name}</code>
            {schedule.cron ? <code className="font-mono text-xs text-zinc-500">{schedule.cron}</code> : null}
            {schedule.paused ? <Badge tone="warn">paused</Badge> : null}
            <span className="text-zinc-500">
              next {schedule.paused || !schedule.nextRunAt ? "—" : new Date(schedule.nextRunAt).toLocaleString()} · last{" "}
              {schedule.lastRun ? (
                schedule.lastRun.sessionId ? (
                  <Link className="underline" href={`/${slug}/playground?sessionId=${schedule.lastRun.sessionId}`}>
                    {new Date(schedule.lastRun.firedAt).toLocaleString()}
                  </Link>
                ) : (
                  new Date(schedule.lastRun.firedAt).toLocaleString()
                )
              ) : (
                "never"
              )}
            </span>
            {canManage ? (
              <span className="ml-auto flex gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={runNow.isPending}
                  onClick={() => runNow.mutate(schedule.name)}
                >
                  Run now
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={setPaused.isPending}
                  onClick={() => setPaused.mutate({ name: schedule.name, paused: !schedule.paused })}
                >
                  {schedule.paused ? "Resume" : "Pause"}
                </Button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
