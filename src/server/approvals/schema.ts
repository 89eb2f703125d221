// Inputs and outputs of the approvals API (docs/api.md; what approvals do: docs/turns.md).
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { principalSchema } from "@/agents/sdk/types";
import { storableString, visibleAsciiId } from "@/server/validation/schema";

/** A parked call's id is the model provider's tool-call id (`call_…`, `toolu_…`). */
export const callIdSchema = visibleAsciiId("callId");

export const decideApprovalBodySchema = z.strictObject({
  decision: z.enum(["approve", "deny"]),
  reason: storableString().min(1).max(2_000).optional(),
});
export type DecideApprovalBody = z.infer<typeof decideApprovalBodySchema>;

export type ApprovalDecided = {
  ok: true;
  sessionId: string;
  callId: string;
  decision: "approved" | "denied";
  /** False when the engine could not be told yet; it is told again on the next attempt. */
  delivered: boolean;
};

const jsonSchema = z.json();
// The arguments as Prisma reads the jsonb column; checked to be JSON, passed on untouched.
const storedJsonSchema = z.custom<Prisma.JsonValue>((value) => jsonSchema.safeParse(value).success, "not a JSON value");

/** One call in the team inbox, with the session and agent it belongs to. */
export const inboxApprovalSchema = z.object({
  callId: z.string(),
  toolName: z.string(),
  args: storedJsonSchema,
  /** pending | approved | denied | expired | cancelled (prisma/schema.prisma, Approval). */
  status: z.string(),
  reason: z.string().nullable(),
  decidedBy: principalSchema.nullable(),
  requestedBy: principalSchema,
  decidedAt: z.date().nullable(),
  createdAt: z.date(),
  expiresAt: z.date(),
  sessionId: z.string(),
  sessionTitle: z.string().nullable(),
  agentSlug: z.string(),
  agentName: z.string(),
});

export const approvalInboxSchema = z.object({
  pending: z.array(inboxApprovalSchema),
  decided: z.array(inboxApprovalSchema),
});

export const approvalDecidedSchema = z.object({
  ok: z.literal(true),
  sessionId: z.string(),
  callId: z.string(),
  decision: z.enum(["approved", "denied"]),
  delivered: z.boolean(),
});
