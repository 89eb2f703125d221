// Inputs and outputs of the session API (spec §3.3; shapes marked [inferred] there are decided
// here and documented in docs/api.md).
import { z } from "zod";

const workspaceFiles = z.record(z.string().min(1).max(512), z.string().max(512 * 1024)).refine((files) => Object.keys(files).length <= 100, {
  message: "at most 100 workspace files per send",
});

export const startSessionBodySchema = z.strictObject({
  message: z.string().min(1, "message must not be empty").max(100_000),
  title: z.string().min(1).max(200).optional(),
  workspaceFiles: workspaceFiles.optional(),
  dryRun: z.boolean().optional(),
  deliveryId: z.string().min(1).max(200).optional(),
});
export type StartSessionBody = z.infer<typeof startSessionBodySchema>;

export const followUpBodySchema = z.strictObject({
  continuationToken: z.string().min(1),
  message: z.string().min(1, "message must not be empty").max(100_000),
  admission: z.enum(["preempt", "coalesce"]).optional(),
  workspaceFiles: workspaceFiles.optional(),
  deliveryId: z.string().min(1).max(200).optional(),
});
export type FollowUpBody = z.infer<typeof followUpBodySchema>;

export const sessionIdSchema = z.string().regex(/^ses_[A-Za-z0-9]+$/, "not a session id");

export const listSessionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
  channel: z.string().optional(),
  mode: z.enum(["chat", "task"]).optional(),
  status: z.enum(["idle", "running", "waiting", "completed", "failed"]).optional(),
  q: z.string().max(200).optional(),
});
export type ListSessionsQuery = z.infer<typeof listSessionsQuerySchema>;

export type SessionSummary = {
  id: string;
  title: string | null;
  channelId: string;
  mode: "chat" | "task";
  status: "idle" | "running" | "waiting" | "completed" | "failed";
  purpose: "live" | "eval";
  dryRun: boolean;
  agentVersion: number;
  eventCount: number;
  createdAt: string;
  updatedAt: string;
};

export type SessionStarted = {
  ok: true;
  sessionId: string;
  continuationToken: string;
  deliveryId: string;
  playgroundUrl: string;
  traceUrl: string;
};
