// Inputs and outputs of the session API (docs/api.md, "Sessions"); shapes the Agent SDK leaves
// open are decided here (docs/decisions.md).
import { z } from "zod";
import { queryInteger, storableString, visibleAsciiId } from "@/server/validation/schema";
import { workspacePathProblem } from "./assert-workspace-paths";

// Every path is checked here, with an issue at its key that names it: a bad one is a 400 before
// anything is recorded (./assert-workspace-paths.ts says why).
const workspaceFiles = z
  .record(z.string().max(512), storableString().max(512 * 1024))
  .refine((files) => Object.keys(files).length <= 100, { message: "at most 100 workspace files per send" })
  .superRefine((files, ctx) => {
    for (const file of Object.keys(files)) {
      const problem = workspacePathProblem(file);
      if (problem) ctx.addIssue({ code: "custom", path: [file], message: `workspace path '${file}' ${problem}` });
    }
  });

const message = storableString().min(1, "message must not be empty").max(100_000);
const deliveryId = visibleAsciiId("deliveryId");

export const startSessionBodySchema = z.strictObject({
  message,
  title: storableString().min(1).max(200).optional(),
  workspaceFiles: workspaceFiles.optional(),
  dryRun: z.boolean().optional(),
  deliveryId: deliveryId.optional(),
});
export type StartSessionBody = z.infer<typeof startSessionBodySchema>;

export const followUpBodySchema = z.strictObject({
  continuationToken: z.string().min(1).max(500),
  message,
  admission: z.enum(["preempt", "coalesce"]).optional(),
  workspaceFiles: workspaceFiles.optional(),
  deliveryId: deliveryId.optional(),
});
export type FollowUpBody = z.infer<typeof followUpBodySchema>;

// The server makes `ses_` + 32 hex digits (./session-urls.ts); any id of this shape is looked up
// (404 when unknown), anything else is not a session id.
export const sessionIdSchema = z
  .string()
  .regex(/^ses_[A-Za-z0-9]{1,64}$/, "not a session id (ses_ and 1-64 letters or digits)");

/** `startIndex` of the stream and the events dump: an event index, a Postgres integer. */
export const startIndexSchema = queryInteger({ min: 0, default: 0 });

// The values of the Prisma enums SessionMode and SessionStatus (prisma/schema.prisma).
export const sessionModeSchema = z.enum(["chat", "task"]);
export const sessionStatusSchema = z.enum(["idle", "running", "waiting", "completed", "failed"]);

export const listSessionsQuerySchema = z.object({
  limit: queryInteger({ min: 1, max: 100, default: 20 }),
  cursor: sessionIdSchema.optional(),
  channel: storableString().max(200).optional(),
  mode: sessionModeSchema.optional(),
  status: sessionStatusSchema.optional(),
  q: storableString().max(200).optional(),
});
export type ListSessionsQuery = z.infer<typeof listSessionsQuerySchema>;

export const recentSessionsInputSchema = z.object({ limit: z.number().int().min(1).max(50).default(10) });

/** The signed-in user's sessions across agents, most recently active first (the home page). */
export const recentSessionsSchema = z.array(
  z.object({
    id: z.string(),
    title: z.string().nullable(),
    status: sessionStatusSchema,
    mode: sessionModeSchema,
    updatedAt: z.date(),
    agentSlug: z.string(),
    agentName: z.string(),
  }),
);

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

// The answers of the session routes, as the wire carries them (the route table's OpenAPI document).
export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  channelId: z.string(),
  mode: sessionModeSchema,
  status: sessionStatusSchema,
  purpose: z.enum(["live", "eval"]),
  dryRun: z.boolean(),
  agentVersion: z.number().int(),
  eventCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const sessionStartedSchema = z.object({
  ok: z.literal(true),
  sessionId: z.string(),
  continuationToken: z.string(),
  deliveryId: z.string(),
  playgroundUrl: z.string(),
  traceUrl: z.string(),
});

export const followUpAcceptedSchema = z.object({
  ok: z.literal(true),
  sessionId: z.string(),
  continuationToken: z.string(),
  deliveryId: z.string(),
  admission: z.enum(["started", "queued"]),
  preempted: z.literal(true).optional(),
});

export const sessionPageSchema = z.object({
  ok: z.literal(true),
  sessions: z.array(sessionSummarySchema),
  nextCursor: z.string().nullable(),
});

export const pendingApprovalSchema = z.object({
  callId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  requestedAt: z.string(),
  expiresAt: z.string(),
});

export const sessionStateSchema = z.object({
  ok: z.literal(true),
  session: sessionSummarySchema,
  pendingApprovals: z.array(pendingApprovalSchema),
});

export const sessionResumedSchema = z.object({
  ok: z.literal(true),
  sessionId: z.string(),
  continuationToken: z.string(),
});
export const sessionStoppedSchema = z.object({ ok: z.literal(true), sessionId: z.string(), wasRunning: z.boolean() });
export const sessionDeletedSchema = z.object({ ok: z.literal(true), sessionId: z.string() });
