// Types shared across the authoring modules: JSON values, principals, sessions, and the
// artifacts API. They are the contract agent code is written against; the runtime implements it.
import { z } from "zod";

export type JsonPrimitive = string | number | boolean | null;
// `undefined` is allowed in objects so `type` aliases with optional fields stay assignable; it
// is dropped when the value is serialized.
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue | undefined };
export type JsonObject = { [key: string]: JsonValue | undefined };

/** [inferred] Who a request, session or approval belongs to (docs/api.md, "Authentication"). */
export const principalSchema = z.strictObject({
  kind: z.enum(["user", "app", "anonymous", "local"]),
  id: z.string().min(1),
  attributes: z.record(z.string(), z.string()).optional(),
});
export type Principal = z.infer<typeof principalSchema>;

export const sessionModes = ["chat", "task"] as const;
export type SessionMode = (typeof sessionModes)[number];
export const sessionPurposes = ["live", "eval"] as const;
export type SessionPurpose = (typeof sessionPurposes)[number];
export type Admission = "preempt" | "coalesce";

/** Options of `send(...)` on tools, channel routes and schedules
 * (docs/agent-folders.md, "The `define*` helpers"). */
export type SendOptions<State = JsonObject> = {
  /** Conversation key: the same token reaches the same session. */
  continuationToken?: string;
  title?: string;
  /** Initial channel state for a new session. */
  state?: State;
  /** Defaults to the caller's principal. */
  auth?: Principal;
  admission?: Admission;
  deliveryId?: string;
  /** Files written into the workspace before the turn, keyed by relative path. */
  workspaceFiles?: Record<string, string>;
};

/** [inferred] How a session ends, as `waitForCompletion()` reports it. */
export type SessionCompletion = {
  status: "finished" | "failed" | "cancelled";
  result?: JsonValue;
  errorMessage?: string;
};

export type SessionHandle = {
  id: string;
  deliveryId: string;
  waitForCompletion(): Promise<SessionCompletion>;
};

/** What `getSession(...)` returns: enough to continue or inspect a session. */
export type SessionRef = {
  id: string;
  channelId: string;
  mode: SessionMode;
  /** Null when the session cannot take follow-ups (task sessions). */
  continuationToken: string | null;
  title?: string;
};

/** [inferred] A stored artifact record (docs/agent-folders.md, "The `define*` helpers"). */
export type ArtifactRecord = {
  kind: string;
  key: string;
  title?: string;
  data: JsonValue;
  sessionId?: string;
  turnId?: string;
  createdAt: string;
  updatedAt: string;
};

export type ArtifactTagInput = {
  /** Defaults to "artifact" when the agent declares no kinds. */
  kind?: string;
  key: string;
  title?: string;
  data?: unknown;
  sessionId?: string;
  turnId?: string;
};

export type ArtifactFilter = { kind?: string; sessionId?: string; limit?: number };

export type ArtifactsApi = {
  tag(input: ArtifactTagInput): Promise<ArtifactRecord>;
  list(filter?: ArtifactFilter): Promise<ArtifactRecord[]>;
};

/** The session as hooks and the result contract see it (tools see `channel` instead of
 * `channelId`, as in the spec). */
export type HandlerSession = {
  id: string;
  channelId: string;
  mode: SessionMode;
  /** Eval sessions fire hooks too: skip metering and paging for them. */
  purpose: SessionPurpose;
  auth: Principal;
  title?: string;
};
