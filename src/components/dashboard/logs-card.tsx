"use client";
// The agent page's Logs: the playground's Logs panel over the same API, a session opening in the
// playground.
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { createApiClient } from "@/components/playground/api-client";
import { LogsPanel } from "@/components/playground/logs-panel";
import { Card } from "@/components/ui/card";

export function LogsCard({ slug }: { slug: string }) {
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const router = useRouter();
  return (
    <Card aria-label="Logs" data-testid="agent-logs">
      <h2 className="font-semibold">Logs</h2>
      <p className="mt-1 text-sm text-zinc-500">
        What the agent's code printed and the platform said about it, newest last (kept per docs/logs.md).
      </p>
      <div className="mt-3 h-80 overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800">
        <LogsPanel
          client={client}
          onOpenSession={(sessionId) =>
            router.push(`/${encodeURIComponent(slug)}/playground?sessionId=${encodeURIComponent(sessionId)}`)
          }
        />
      </div>
    </Card>
  );
}
