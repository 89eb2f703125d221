// What the playground renders: a session's events folded into messages, reasoning, tool calls
// (with their subagent work nested), approvals, connections to connect, tagged artifacts and turn status.
import type { Usage } from "@/agents/sdk/events";
import type { Principal } from "@/agents/sdk/types";

/** `cancelled`: the turn ended (stop, preempt, failure) before the call had a result. */
export type ToolState = "running" | "done" | "error" | "stubbed" | "cancelled";

export type Approval = {
  status: "pending" | "approved" | "denied";
  args: unknown;
  requestedAt: string;
  requestedBy?: Principal;
  decidedAt?: string;
  approvedBy?: Principal;
  reason?: string;
};

export type SubagentRun = { name: string; prompt: string; result?: string; isError?: boolean };

export type ToolCall = {
  callId: string;
  toolName: string;
  turnId?: string;
  parentCallId?: string;
  args?: unknown;
  state: ToolState;
  output?: unknown;
  requestedAt: string;
  durationMs?: number;
  retries: { attempt: number; error: string }[];
  approval?: Approval;
  subagent?: SubagentRun;
  /** Model steps a subagent ran under this call. */
  subagentSteps: number;
  /** Calls a subagent made under this call, in order. */
  children: string[];
};

export type TranscriptItem =
  | { kind: "user"; key: string; turnId?: string; text: string; at: string; isNudge: boolean }
  | { kind: "assistant"; key: string; turnId?: string; text: string; isComplete: boolean }
  | { kind: "reasoning"; key: string; turnId?: string; text: string; isComplete: boolean }
  | { kind: "tool"; key: string; turnId?: string; callId: string }
  | { kind: "artifact"; key: string; turnId?: string; artifact: TaggedArtifact; at: string }
  | { kind: "connection"; key: string; turnId?: string; auth: ConnectionAuth };

/** From connection.auth_*: an OAuth MCP connection a turn waits for someone to connect. */
export type ConnectionAuth = {
  connection: string;
  status: "pending" | "connected" | "expired" | "cancelled";
  /** The provider's page of the latest request; absent when the log holds only the outcome. */
  authorizeUrl?: string;
  expiresAt?: string;
  requestedAt?: string;
  resolvedAt?: string;
};

/** From artifact.tagged: a record as it was tagged at that point of the session. */
export type TaggedArtifact = { kind: string; key: string; title?: string; data?: unknown };

export type TurnState = "queued" | "running" | "completed" | "cancelled" | "error";

export type TurnStatus = {
  turnId: string;
  state: TurnState;
  position?: number;
  usage?: Usage;
  cost?: { totalUsd: number; model: string };
  message?: string;
  startedAt?: string;
  endedAt?: string;
};

/** From session.started: what kind of session this is; `notes`: how its model runs here (docs/models.md). */
export type SessionInfo = {
  mode: "chat" | "task";
  purpose: "live" | "eval";
  dryRun: boolean;
  title?: string;
  notes?: string[];
};

export type Transcript = {
  /** The highest event index folded in; -1 before any. */
  lastIndex: number;
  session?: SessionInfo;
  items: TranscriptItem[];
  calls: Record<string, ToolCall>;
  turns: Record<string, TurnStatus>;
  /** Per turn: the item count when its current root step started (for crashed attempts). */
  stepStarts: Record<string, number>;
  /** Keys of the text and reasoning items deltas still append to; closed at boundaries. */
  openAssistant?: string;
  openReasoning?: string;
};

export const emptyTranscript: Transcript = { lastIndex: -1, items: [], calls: {}, turns: {}, stepStarts: {} };
