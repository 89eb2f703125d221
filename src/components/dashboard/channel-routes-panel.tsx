"use client";
// An agent's channel routes, each with the playground's Try modal: the same /v1 call a script
// would make, with the sign-in cookie as the credential.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { createApiClient } from "@/components/playground/api-client";
import { type ChannelRoute, channelRoutes } from "@/components/playground/channel-routes";
import { TryDialog } from "@/components/playground/try-dialog";
import type { AgentInfo } from "@/components/playground/types";
import { errorMessage } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";

export function ChannelRoutesPanel({ slug }: { slug: string }) {
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const info = useQuery({
    queryKey: ["info", slug],
    queryFn: () => client.json<AgentInfo>("GET", "/info").then((answer) => channelRoutes(answer.agent.channels)),
  });
  const [tryRoute, setTryRoute] = useState<ChannelRoute>();
  return (
    <Card aria-label="Channel routes" data-testid="channel-routes">
      <h2 className="font-semibold">Channel routes</h2>
      {info.error ? <ErrorNote>{errorMessage(info.error)}</ErrorNote> : null}
      <ul className="mt-3 space-y-2">
        {(info.data ?? []).map((route) => (
          <li key={route.key} className="flex items-start gap-2 text-sm" data-route={route.key}>
            <Badge>{route.method}</Badge>
            <div className="min-w-0 flex-1">
              <code className="font-mono">{`/${slug}/v1/channels/${route.channel}${route.path}`}</code>
              {route.description ? <p className="text-zinc-500">{route.description}</p> : null}
            </div>
            <Button size="sm" variant="secondary" data-testid="route-try" onClick={() => setTryRoute(route)}>
              Try
            </Button>
          </li>
        ))}
      </ul>
      {tryRoute ? (
        <TryDialog key={tryRoute.key} slug={slug} token="" route={tryRoute} onClose={() => setTryRoute(undefined)} />
      ) : null}
    </Card>
  );
}
