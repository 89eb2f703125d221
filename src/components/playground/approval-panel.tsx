"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { Approval } from "./transcript";
import { principalLabel } from "./transcript-view-model";
import { JsonBlock } from "./json-block";

export type Decide = (callId: string, decision: "approve" | "deny") => Promise<void>;

/** A parked call: the full arguments, and the two buttons that decide it. */
export function ApprovalPending({
  callId,
  toolName,
  approval,
  onDecide,
}: {
  callId: string;
  toolName: string;
  approval: Approval;
  onDecide: Decide;
}) {
  const [isSending, setIsSending] = useState(false);
  const decide = async (decision: "approve" | "deny") => {
    setIsSending(true);
    try {
      await onDecide(callId, decision);
    } finally {
      setIsSending(false);
    }
  };
  return (
    <div
      className="mt-2 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="approval-pending"
    >
      <p className="text-sm font-medium">
        <span className="font-mono">{toolName}</span> needs your approval before it runs.
      </p>
      <JsonBlock label="Arguments" value={approval.args} />
      <div className="flex gap-2">
        <Button
          data-testid="approve"
          disabled={isSending}
          onClick={() => decide("approve")}
          aria-label={`Approve ${toolName}`}
        >
          Approve
        </Button>
        <Button
          data-testid="deny"
          variant="danger"
          disabled={isSending}
          onClick={() => decide("deny")}
          aria-label={`Deny ${toolName}`}
        >
          Deny
        </Button>
      </div>
    </div>
  );
}

/** A decided call: who decided and when; with nobody, why it was decided for them. */
export function ApprovalDecided({ approval }: { approval: Approval }) {
  const verb = approval.status === "approved" ? "Approved" : "Denied";
  const who = approval.approvedBy ? (
    <>
      {" "}
      by <span className="font-medium">{principalLabel(approval.approvedBy)}</span>
    </>
  ) : (
    ` automatically${approval.reason ? ` (${approval.reason})` : ""}`
  );
  return (
    <p
      data-testid="approval-decided"
      data-decision={approval.status}
      className="mt-1 text-xs text-zinc-600 dark:text-zinc-400"
    >
      {verb}
      {who}
      {approval.decidedAt ? (
        <>
          {" "}
          at <time dateTime={approval.decidedAt}>{new Date(approval.decidedAt).toLocaleString()}</time>
        </>
      ) : null}
      {approval.approvedBy && approval.reason ? `: ${approval.reason}` : null}
    </p>
  );
}
