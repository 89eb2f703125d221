"use client";
// The agent page's MCP connections (docs/agent-folders.md, "MCP connections"): each connection of
// the active version with its form, where it points and, for OAuth ones, whether the agent is
// connected, with Disconnect for admins. Over the same /v1 API a client would use.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { createApiClient } from "@/components/playground/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";

type ConnectionState = {
  name: string;
  scope: "mcp" | "host";
  form: "remote" | "stdio" | "agent";
  target: string;
  optional: boolean;
  advertiseTools: boolean;
  auth: "connected" | "not_connected" | "not_needed";
  connectedAt: string | null;
};

const formLabel = { remote: "remote", stdio: "stdio", agent: "peer agent" } as const;

export function ConnectionsCard({ slug, canManage }: { slug: string; canManage: boolean }) {
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const queryClient = useQueryClient();
  const queryKey = ["agent-connections", slug];
  const connections = useQuery({
    queryKey,
    queryFn: () => client.json<{ connections: ConnectionState[] }>("GET", "/connections"),
  });
  const disconnect = useMutation({
    mutationFn: (name: string) => client.json("DELETE", `/connections/${encodeURIComponent(name)}/authorization`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
  const list = connections.data?.connections ?? [];
  if (connections.isSuccess && list.length === 0) return null;
  return (
    <Card aria-label="MCP connections" data-testid="agent-connections">
      <h2 className="font-semibold">MCP connections</h2>
      <p className="mt-1 text-sm text-zinc-500">
        The MCP servers and peer agents the active version connects to. OAuth connections are connected from the
        playground (Connect) the first time a turn needs them; Disconnect forgets the agent&apos;s tokens.
      </p>
      {connections.error || disconnect.error ? (
        <div className="mt-2">
          <ErrorNote>{String((connections.error ?? disconnect.error)?.message)}</ErrorNote>
        </div>
      ) : null}
      <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
        {list.map((connection) => (
          <li
            key={connection.name}
            className="flex flex-wrap items-center gap-2 py-2 text-sm"
            data-testid="agent-connection"
            data-connection={connection.name}
            data-auth={connection.auth}
          >
            <span className="font-mono font-medium">{connection.name}</span>
            <Badge>{formLabel[connection.form]}</Badge>
            {connection.scope === "host" ? <Badge>host code only</Badge> : null}
            {connection.optional ? <Badge>optional</Badge> : null}
            <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500" title={connection.target}>
              {connection.target}
            </span>
            {connection.auth === "connected" ? (
              <>
                <Badge tone="good">connected</Badge>
                {canManage ? (
                  <Button
                    variant="secondary"
                    aria-label={`Disconnect ${connection.name}`}
                    disabled={disconnect.isPending}
                    onClick={() => disconnect.mutate(connection.name)}
                  >
                    Disconnect
                  </Button>
                ) : null}
              </>
            ) : connection.auth === "not_connected" ? (
              <Badge tone="warn">not connected</Badge>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
