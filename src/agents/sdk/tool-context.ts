// The `ctx` a tool's execute receives (docs/agent-folders.md, "The `define*` helpers").
import type { HostServices } from "./host";
import type {
  ArtifactsApi,
  ArtifactTagInput,
  ArtifactRecord,
  JsonObject,
  Principal,
  SendOptions,
  SessionHandle,
  SessionMode,
  SessionPurpose,
  SessionRef,
} from "./types";

/** Read-only facts about the session a tool runs in. */
export type ToolSession = {
  id: string;
  /** The channel id (hooks call it `channelId`). */
  channel: string;
  mode: SessionMode;
  auth: Principal;
  /** [inferred] */
  purpose: SessionPurpose;
  /** [inferred] */
  title?: string;
  /** [inferred] True when write tools are stubbed instead of run. */
  dryRun: boolean;
};

/** The artifacts API with the session (and turn, in hooks) filled in. */
export type SessionArtifactsApi = Omit<ArtifactsApi, "tag"> & {
  tag(input: Omit<ArtifactTagInput, "sessionId">): Promise<ArtifactRecord>;
};

export type ToolContext = {
  /** Matches `callId` in `actions.requested` and `action.result`. */
  toolCallId: string;
  session: ToolSession;
  /** The approver's principal, for a needsApproval tool that was approved. */
  approvedBy?: Principal;
  workspaceDir: string;
  /** The agent's durable state root, shared across sessions. */
  stateRoot: string;
  /** Absent for tools running as workspace scripts (`execution: "agent"`). */
  host?: HostServices;
  /** Start or resume a session on any channel; `auth` defaults to this session's principal. */
  send(channelId: string, message: string, options?: SendOptions<JsonObject>): Promise<SessionHandle>;
  getSession(channelId: string, sessionId: string): Promise<SessionRef | null>;
  /** [inferred] Work the call finishes before it answers, with its host services still at hand. */
  waitUntil(promise: Promise<unknown>): void;
  artifacts: SessionArtifactsApi;
};
