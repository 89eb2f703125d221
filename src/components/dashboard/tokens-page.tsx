"use client";
// Bearer tokens: create one (name, agents, scopes, expiry), see it once, list with last use,
// revoke (effective on the next request).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TokenAction } from "@/server/tokens/scopes";
import { useTeam } from "@/components/shell/app-shell";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { CreatedToken } from "./created-token";

const scopes: { action: TokenAction; label: string }[] = [
  { action: "sessions:write", label: "Chat (start and continue sessions)" },
  { action: "sessions:read", label: "Read sessions and streams" },
  { action: "tools:call", label: "Call tools directly" },
  { action: "channels:invoke", label: "Call channel routes" },
  { action: "artifacts:read", label: "Read artifacts" },
  { action: "approvals:write", label: "Approve or deny tool calls" },
  { action: "agents:read", label: "Read agents" },
  { action: "agents:deploy", label: "Upload and activate versions" },
  { action: "tokens:write", label: "Make tokens within its own scopes (the CLI's token create)" },
];

function when(value: Date | string | null): string {
  return value ? new Date(value).toLocaleString() : "never";
}

export function TokensPage({ teamSlug }: { teamSlug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const team = useTeam(teamSlug);
  const tokens = useQuery(trpc.tokens.list.queryOptions({ teamSlug }));
  const agents = useQuery(trpc.agents.list.queryOptions({ teamSlug }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const [shown, setShown] = useState<{ token: string; slug?: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const agent = String(form.get("agent") ?? "");
    const days = Number(form.get("expires"));
    const created = await create
      .mutateAsync({
        teamSlug,
        name: String(form.get("name") ?? ""),
        actions: form.getAll("scope").map(String) as TokenAction[],
        agentSlugs: agent ? [agent] : [],
        expiresInDays: days > 0 ? days : null,
      })
      .catch(() => null);
    if (created) {
      setShown({ token: created.token, slug: agent || agents.data?.[0]?.slug });
      event.currentTarget?.reset();
    }
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Tokens</h1>
      <Card aria-label="Create a token">
        <h2 className="font-semibold">Create a token</h2>
        <p className="mt-1 text-sm text-zinc-500">
          For scripts and API clients: send it as Authorization: Bearer &lt;token&gt;.
          {team ? ` As ${team.role} you can grant what your role allows.` : ""}
        </p>
        <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3" aria-label="Create a token">
          <Field label="Name">
            <Input name="name" required placeholder="ci-bot" data-testid="token-name" />
          </Field>
          <Field label="Agents">
            <Select name="agent" data-testid="token-agent">
              <option value="">Every agent of the team</option>
              {agents.data?.map((agent) => (
                <option key={agent.slug} value={agent.slug}>
                  {agent.slug}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Expires">
            <Select name="expires" defaultValue="90" data-testid="token-expires">
              <option value="7">in 7 days</option>
              <option value="30">in 30 days</option>
              <option value="90">in 90 days</option>
              <option value="365">in a year</option>
              <option value="0">never</option>
            </Select>
          </Field>
          <fieldset className="sm:col-span-3">
            <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">Scopes</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {scopes.map((scope) => (
                <label key={scope.action} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="scope"
                    value={scope.action}
                    defaultChecked={scope.action.startsWith("sessions")}
                    data-testid={`scope-${scope.action}`}
                  />
                  {scope.label} <code className="font-mono text-xs text-zinc-500">{scope.action}</code>
                </label>
              ))}
            </div>
          </fieldset>
          {create.error ? (
            <div className="sm:col-span-3">
              <ErrorNote testId="token-error">{errorMessage(create.error)}</ErrorNote>
            </div>
          ) : null}
          <div className="sm:col-span-3">
            <Button type="submit" disabled={create.isPending} data-testid="token-create">
              Create token
            </Button>
          </div>
        </form>
      </Card>
      {tokens.data?.length === 0 ? (
        <EmptyState title="No tokens yet">
          Create one above for each script or client, so you can revoke them one by one.
        </EmptyState>
      ) : null}
      {tokens.data && tokens.data.length > 0 ? (
        <Card aria-label="Tokens">
          <table className="w-full text-left text-sm" data-testid="token-list">
            <thead className="text-xs uppercase text-zinc-500">
              <tr>
                <th className="py-2">Name</th>
                <th>Scopes</th>
                <th>Agents</th>
                <th>Last used</th>
                <th>Expires</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {tokens.data.map((token) => (
                <tr key={token.id} data-testid={`token-${token.name}`}>
                  <td className="py-2">
                    <span className="font-medium">{token.name}</span>{" "}
                    <code className="font-mono text-xs text-zinc-500">{token.prefix}…</code>
                  </td>
                  <td className="text-xs">{token.actions.join(", ")}</td>
                  <td className="text-xs">{token.agentSlugs.length ? token.agentSlugs.join(", ") : "all"}</td>
                  <td className="text-xs" data-testid="token-last-used">
                    {when(token.lastUsedAt)}
                  </td>
                  <td className="text-xs">{token.expiresAt ? when(token.expiresAt) : "never"}</td>
                  <td className="text-right">
                    {token.revokedAt ? (
                      <Badge tone="bad">revoked</Badge>
                    ) : (
                      <Button
                        size="sm"
                        variant="danger"
                        disabled={revoke.isPending}
                        onClick={() => revoke.mutate({ teamSlug, tokenId: token.id })}
                        data-testid="token-revoke"
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {revoke.error ? <ErrorNote>{errorMessage(revoke.error)}</ErrorNote> : null}
        </Card>
      ) : null}
      <CreatedToken token={shown?.token ?? null} slug={shown?.slug} onClose={() => setShown(null)} />
    </div>
  );
}
