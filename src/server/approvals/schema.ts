// Inputs and outputs of the approvals API (docs/api.md; what approvals do: docs/turns.md).
import { z } from "zod";
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
