// Wire shapes of the /<slug>/v1 answers the playground reads (docs/api.md).
export type SessionSummary = {
  id: string;
  title: string | null;
  channelId: string;
  mode: "chat" | "task";
  status: "idle" | "running" | "waiting" | "completed" | "failed";
  purpose: string;
  dryRun: boolean;
  agentVersion: number;
  eventCount: number;
  createdAt: string;
  updatedAt: string;
};

export type SessionList = { ok: true; sessions: SessionSummary[]; nextCursor: string | null };
export type SessionStarted = { ok: true; sessionId: string; continuationToken: string };
export type FollowUpSent = { ok: true; sessionId: string; continuationToken: string; admission: "started" | "queued" };
export type AgentInfo = { ok: true; slug: string; version: number; agent: { name: string; description?: string } };
