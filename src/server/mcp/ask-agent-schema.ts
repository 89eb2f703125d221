// What `ask` and `check` take and answer (docs/api.md, "MCP"): the MCP server's tool schemas and
// askAgent's result, also for peer agents' `<connection>__ask` / `__check` in the worker.
import { z } from "zod";
import { pendingApprovalSchema, sessionIdSchema, startSessionBodySchema } from "@/server/sessions/schema";

export const askInputSchema = z.strictObject({
  message: startSessionBodySchema.shape.message.describe("What to say to the agent"),
  sessionId: sessionIdSchema
    .optional()
    .describe("Continue this session (the sessionId an earlier ask answered); leave out to start a new one"),
});
export type AskInput = z.infer<typeof askInputSchema>;

export const checkInputSchema = z.strictObject({
  sessionId: sessionIdSchema.describe("A session an earlier ask answered"),
});
export type CheckInput = z.infer<typeof checkInputSchema>;

/** How a turn stands: still running, parked on approvals, or how it ended. */
export const turnStatusSchema = z.enum(["running", "waiting_approval", "completed", "failed", "cancelled"]);
export type TurnStatus = z.infer<typeof turnStatusSchema>;

const reply = z.string().nullable().describe("The turn's final message; null when it has none (yet)");
const error = z.string().optional().describe("Why the turn failed or was cancelled");

export const askOutputSchema = z.object({
  sessionId: z.string(),
  status: turnStatusSchema.exclude(["running"]),
  reply,
  error,
  pendingApprovals: z.array(pendingApprovalSchema).optional().describe("With waiting_approval: the parked calls"),
});
export type AskResult = z.infer<typeof askOutputSchema>;

export const checkOutputSchema = z.object({
  sessionId: z.string(),
  status: turnStatusSchema.describe("The session's latest turn"),
  reply,
  error,
  pendingApprovals: z.array(pendingApprovalSchema),
});
export type CheckResult = z.infer<typeof checkOutputSchema>;
