"use client";
// The team's approvals inbox: calls waiting for a decision, newest first, decided in place
// (through the same /v1 route as any client); below, the history with who decided.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { createApiClient } from "@/components/playground/api-client";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { principalLabel } from "@/components/playground/transcript-view-model";
import { ageOf } from "./age-of";

function decide(item: { agentSlug: string; sessionId: string; callId: string }, decision: "approve" | "deny") {
  // The sign-in cookie is the credential: no token.
  const client = createApiClient(item.agentSlug, "");
  return client.json(
    "POST",
    `/session/${encodeURIComponent(item.sessionId)}/approvals/${encodeURIComponent(item.callId)}`,
    { body: { decision } },
  );
}

export function ApprovalsPage({ teamSlug }: { teamSlug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inbox = useQuery({ ...trpc.approvals.inbox.queryOptions({ teamSlug }), refetchInterval: 5_000 });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function act(item: Parameters<typeof decide>[0], decision: "approve" | "deny") {
    setBusy(item.callId);
    setError(null);
    try {
      await decide(item, decision);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: trpc.approvals.inbox.queryKey() });
    }
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Approvals</h1>
      {inbox.error ? <ErrorNote>{errorMessage(inbox.error)}</ErrorNote> : null}
      {error ? <ErrorNote testId="approval-error">{error}</ErrorNote> : null}
      <section aria-label="Waiting for a decision" className="space-y-3" data-testid="approvals-pending">
        <h2 className="font-semibold">Waiting for a decision</h2>
        {inbox.data?.pending.length === 0 ? (
          <EmptyState title="Nothing is waiting">Tool calls that need a person's approval appear here.</EmptyState>
        ) : null}
        {inbox.data?.pending.map((item) => (
          <Card key={`${item.sessionId}/${item.callId}`} data-testid="approval-pending">
            <div className="flex flex-wrap items-center gap-3">
              <code className="font-mono font-medium">{item.toolName}</code>
              <span className="text-sm text-zinc-500">
                {item.agentName} ·{" "}
                <Link className="underline" href={`/${item.agentSlug}/playground?sessionId=${item.sessionId}`}>
                  {item.sessionTitle ?? item.sessionId}
                </Link>{" "}
                · asked by {principalLabel(item.requestedBy)} · {ageOf(item.createdAt)} ago
              </span>
              <div className="ml-auto flex gap-2">
                <Button
                  size="sm"
                  disabled={busy === item.callId}
                  onClick={() => act(item, "approve")}
                  data-testid="inbox-approve"
                >
                  Approve
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={busy === item.callId}
                  onClick={() => act(item, "deny")}
                  data-testid="inbox-deny"
                >
                  Deny
                </Button>
              </div>
            </div>
            <pre className="mt-3 overflow-x-auto rounded bg-zinc-100 p-3 font-mono text-xs dark:bg-zinc-800">
              {JSON.stringify(item.args, null, 2)}
            </pre>
          </Card>
        ))}
      </section>
      <section aria-label="History" className="space-y-3">
        <h2 className="font-semibold">History</h2>
        {inbox.data?.decided.length === 0 ? <p className="text-sm text-zinc-500">No decisions yet.</p> : null}
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="approvals-history">
          {inbox.data?.decided.map((item) => (
            <li
              key={`${item.sessionId}/${item.callId}`}
              className="flex flex-wrap items-center gap-3 py-2 text-sm"
              data-testid="approval-decided-row"
            >
              <Badge tone={item.status === "approved" ? "good" : "bad"}>{item.status}</Badge>
              <code className="font-mono">{item.toolName}</code>
              <span className="text-zinc-500">{item.agentName}</span>
              <span data-testid="approval-approver">
                by {item.decidedBy ? principalLabel(item.decidedBy) : (item.reason ?? "the platform")}
              </span>
              {item.decidedAt ? (
                <span className="text-xs text-zinc-500">{new Date(item.decidedAt).toLocaleString()}</span>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
