// The agent a session command (chat, call --url, trajectory --url) talks to: an agent URL as the
// playground shows it (`http://127.0.0.1:3000/desk`), or an instance with --slug. A loopback
// address needs no token: `agentfold dev` admits direct loopback callers as the local principal.
import type { Env } from "@/env";
import { UsageError } from "@/cli/usage-error";
import { isLoopbackAddress } from "@/server/auth/local-caller";
import { normalUrl, readCredentials } from "./instance";
import { instanceClient } from "./instance-client";

export type AgentTarget = { url: string; slug: string; token?: string };

export function agentTargetOf(
  flags: { url?: string; token?: string; slug?: string },
  config: Pick<Env, "AGENTFOLD_URL" | "AGENTFOLD_TOKEN" | "configDir">,
): AgentTarget {
  const saved = readCredentials(config);
  const named = flags.url ?? config.AGENTFOLD_URL ?? saved.current;
  if (!named)
    throw new UsageError(
      "name the agent: --url http://127.0.0.1:3000/<agent> (or log in to an instance and pass --slug)",
    );
  const url = new URL(normalUrl(named));
  const segments = url.pathname.split("/").filter(Boolean);
  let slug = flags.slug;
  if (!slug) {
    slug = segments.pop();
    if (!slug)
      throw new UsageError(`${named} names an instance, not an agent: add the agent to it (…/<agent>) or pass --slug`);
  }
  const instance = `${url.origin}${segments.length ? `/${segments.join("/")}` : ""}`;
  const token = flags.token ?? config.AGENTFOLD_TOKEN ?? saved.instances[instance]?.token;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!token && !(host === "localhost" || isLoopbackAddress(host)))
    throw new UsageError(`no token for ${instance}: agentfold login ${instance}, --token <t>, or AGENTFOLD_TOKEN`);
  return { url: instance, slug, ...(token ? { token } : {}) };
}

/** The agent's /<slug>/v1 API. */
export function agentClient(target: AgentTarget) {
  return instanceClient({ url: target.url, token: target.token }, `/${encodeURIComponent(target.slug)}/v1`);
}
