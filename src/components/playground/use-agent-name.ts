"use client";
import { useEffect, useState } from "react";
import type { ApiClient } from "./api-client";
import type { AgentInfo } from "./types";

/** The agent's display name from /info; the slug until (or unless) the caller may read it. */
export function useAgentName(client: ApiClient, slug: string): string {
  const [name, setName] = useState(slug);
  useEffect(() => {
    const controller = new AbortController();
    client
      .json<AgentInfo>("GET", "/info", { signal: controller.signal })
      .then((info) => setName(info.agent.name || slug))
      // The sessions list reports credential problems; the navbar just keeps the slug.
      .catch(() => undefined);
    return () => controller.abort();
  }, [client, slug]);
  return name;
}
