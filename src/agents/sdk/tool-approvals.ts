// buildToolApprovalEvents (`/channels`, `/channels/slack`): the `events` entries that show a
// custom channel's surface its parked `needsApproval` calls and how each was decided
// (docs/compatibility.md, "buildToolApprovalEvents"). The decision itself is the approvals route's.
import { z } from "zod";
import type { EventHandlers } from "./hooks";
import type { JsonValue, Principal } from "./types";
import { functionSchema, parseConfig } from "./validation";

/** A parked call, as the surface shows it. */
export type ToolApprovalRequest = {
  sessionId: string;
  turnId?: string;
  callId: string;
  toolName: string;
  args: JsonValue;
  requestedBy: Principal;
  /** Under the agent's prefix (`/<slug>`): POST `{ decision: "approve" | "deny", reason? }` decides it. */
  decidePath: string;
};

export type ToolApprovalResolution = {
  sessionId: string;
  callId: string;
  decision: "approved" | "denied";
  /** Absent when nobody decided: the call expired, or its turn was stopped. */
  approvedBy?: Principal;
  reason?: string;
};

export type ToolApprovalHandlers<C> = {
  onRequested(request: ToolApprovalRequest, ctx: C): void | Promise<void>;
  /** Update what onRequested showed (replace the buttons with the outcome). */
  onResolved?(resolution: ToolApprovalResolution, ctx: C): void | Promise<void>;
};

const handlersSchema = z.strictObject({ onRequested: functionSchema, onResolved: functionSchema.optional() });

/** Spread the answer into a channel's `events` (`events: { ...buildToolApprovalEvents({ … }), … }`). */
export function buildToolApprovalEvents<C>(handlers: ToolApprovalHandlers<C>): EventHandlers<C> {
  parseConfig("buildToolApprovalEvents", handlersSchema, handlers);
  const { onRequested, onResolved } = handlers;
  const events: EventHandlers<C> = {
    "action.approval_requested": (event, ctx) =>
      onRequested(
        {
          sessionId: event.sessionId,
          ...(event.turnId ? { turnId: event.turnId } : {}),
          callId: event.data.callId,
          toolName: event.data.toolName,
          args: event.data.args as JsonValue,
          requestedBy: event.data.requestedBy,
          decidePath: `/v1/session/${event.sessionId}/approvals/${encodeURIComponent(event.data.callId)}`,
        },
        ctx,
      ),
  };
  if (onResolved)
    events["action.approval_resolved"] = (event, ctx) =>
      onResolved(
        {
          sessionId: event.sessionId,
          callId: event.data.callId,
          decision: event.data.decision,
          ...(event.data.approvedBy ? { approvedBy: event.data.approvedBy } : {}),
          ...(event.data.reason ? { reason: event.data.reason } : {}),
        },
        ctx,
      );
  return events;
}
