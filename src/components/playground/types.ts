// Wire shapes of the /<slug>/v1 answers the playground reads (docs/api.md): the server's own
// types where it declares them, so the two cannot drift.
import type { AgentManifest } from "@/agents/loader/manifest";
import type { SessionSummary } from "@/server/sessions/schema";

export type { FollowUpAccepted as FollowUpSent } from "@/server/sessions/follow-up-session";
export type { SessionStarted, SessionSummary } from "@/server/sessions/schema";

export type SessionList = { ok: true; sessions: SessionSummary[]; nextCursor: string | null };
export type AgentInfo = {
  ok: true;
  slug: string;
  version: number;
  agent: { name: string; description?: string; channels?: AgentManifest["channels"] };
};
