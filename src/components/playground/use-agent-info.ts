"use client";
import { useEffect, useState } from "react";
import type { ApiClient } from "./api-client";
import { type ChannelRoute, channelRoutes } from "./channel-routes";
import type { AgentInfo } from "./types";

export type AgentSurface = { name: string; routes: ChannelRoute[] };

/** The agent's display name and channel routes from /info; the slug and none until (or unless)
 * the caller may read it. */
export function useAgentInfo(client: ApiClient, slug: string): AgentSurface {
  const [surface, setSurface] = useState<AgentSurface>({ name: slug, routes: [] });
  useEffect(() => {
    const controller = new AbortController();
    client
      .json<AgentInfo>("GET", "/info", { signal: controller.signal })
      .then((info) => setSurface({ name: info.agent.name || slug, routes: channelRoutes(info.agent.channels) }))
      // The sessions list reports credential problems; the navbar just keeps the slug.
      .catch(() => undefined);
    return () => controller.abort();
  }, [client, slug]);
  return surface;
}
