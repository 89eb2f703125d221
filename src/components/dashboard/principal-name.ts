import type { Principal } from "@/agents/sdk/types";

/** How a person or client reads in the UI: a name, else an email, else the id. */
export function principalName(principal: Principal | null | undefined): string {
  if (!principal) return "nobody";
  return principal.attributes?.name ?? principal.attributes?.email ?? `${principal.kind} ${principal.id}`;
}

export function ageOf(date: Date | string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(date).getTime()) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
