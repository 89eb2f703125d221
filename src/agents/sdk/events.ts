// The session event vocabulary (docs/api.md, "Turn events (order)"): the single source for every
// producer, stream, hook and test. Envelope `{ type, index, sessionId, turnId?, at, data }`; one
// strict data shape per type, so a producer that drifts from the contract fails its own tests.
// Shapes marked [inferred] are Agentfold's decisions where the spec names the event but not its
// fields.
import { z } from "zod";
import { principalSchema, sessionModes, sessionPurposes } from "./types";

const id = z.string().min(1);
const count = z.number().int().nonnegative();

const envelopeShape = {
  /** Monotonic within a session, starting at 0. */
  index: count,
  sessionId: z.string().regex(/^ses_\S+$/, 'must look like "ses_…"'),
  /** Present on events that belong to a turn. */
  turnId: id.optional(),
  at: z.iso.datetime({ offset: true }),
};

function event<T extends string, S extends z.core.$ZodLooseShape>(type: T, data: S) {
  return z.strictObject({ type: z.literal(type), ...envelopeShape, data: z.strictObject(data) });
}

export const usageSchema = z.strictObject({
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  reasoningTokens: count.optional(),
});

const toolCall = z.strictObject({
  callId: id,
  toolName: id,
  args: z.json().optional(),
  /** Set when a subagent made the call. */
  parentCallId: id.optional(),
});

export const sessionEventSchema = z.discriminatedUnion("type", [
  // [inferred] dryRun: whether write tools are stubbed in this session. notes: how the version's
  // model runs here when not as written (a Cursor id without an alias, ignored params: docs/models.md).
  event("session.started", {
    channelId: id,
    mode: z.enum(sessionModes),
    purpose: z.enum(sessionPurposes),
    title: z.string().optional(),
    dryRun: z.boolean().optional(),
    notes: z.array(z.string()).optional(),
  }),
  event("session.waiting", {}), // [inferred] empty
  event("session.completed", { result: z.json().optional() }), // [inferred]
  event("session.failed", { message: z.string() }), // [inferred]
  event("agent.bound", { url: z.url(), agentId: id }), // [inferred]
  event("message.received", { text: z.string(), deliveryIds: z.array(id).optional() }),
  // [inferred] text: what was steered in, so a transcript reads without the pending queue.
  event("nudge.delivered", { deliveryId: id.optional(), text: z.string().optional() }),
  event("turn.queued", { position: z.number().int().positive() }), // [inferred] 1 = next to run
  event("turn.started", {}), // [inferred] empty
  event("turn.completed", {
    result: z.json().optional(),
    usage: usageSchema.optional(),
    cost: z.strictObject({ totalUsd: z.number().nonnegative(), model: id }).optional(),
  }),
  // [inferred] status set; a stop or preempt carries both the BDK status and July's message.
  event("turn.failed", {
    message: z.string(),
    status: z.enum(["cancelled", "error"]).optional(),
    code: z.string().optional(),
  }),
  // [inferred] step: 0-based within the turn. attempt (≥ 2): the step's earlier attempt was cut
  // off by a crash and runs again; discard the deltas since that attempt's step.started.
  // repair: the result contract's feedback this step answers (docs/turns.md, "Result contract").
  // parentCallId: the step belongs to the subagent run started by that call.
  event("step.started", {
    step: count,
    attempt: z.number().int().min(2).optional(),
    repair: z.string().optional(),
    parentCallId: id.optional(),
  }),
  event("step.completed", { step: count, durationMs: count, parentCallId: id.optional() }), // [inferred]
  event("reasoning.appended", { delta: z.string() }), // [inferred]
  event("reasoning.completed", { text: z.string() }), // [inferred]
  event("message.appended", { delta: z.string() }), // [inferred]
  event("message.completed", { text: z.string() }), // [inferred]
  event("actions.requested", { calls: z.array(toolCall).min(1) }),
  event("actions.completed", { callIds: z.array(id) }), // [inferred] the batch it closes
  event("action.result", {
    callId: id,
    toolName: id,
    output: z.json().optional(),
    isError: z.boolean(),
    stubbed: z.boolean().optional(),
  }),
  // [inferred] attempt = number of the attempt about to run, so the first retry is 2.
  event("action.tool_retry", { callId: id, toolName: id, attempt: z.number().int().min(2), error: z.string() }),
  // [inferred] requestedBy: the session's principal, on whose turn the call was made.
  event("action.approval_requested", { callId: id, toolName: id, args: z.json(), requestedBy: principalSchema }),
  // [inferred] approvedBy: who decided, also on a denial; absent when nobody did: the call
  // expired (reason "expired"), the turn was stopped or preempted (reason "cancelled"), or the
  // session had nobody to ask and the agent's policy denies (reason "unattended").
  event("action.approval_resolved", {
    callId: id,
    decision: z.enum(["approved", "denied"]),
    approvedBy: principalSchema.optional(),
    reason: z.string().optional(),
  }),
  event("subagent.called", { callId: id, subagent: id, prompt: z.string() }), // [inferred]
  // [inferred] subagent and isError added so a trace reads without pairing events.
  event("subagent.completed", {
    callId: id,
    subagent: id,
    result: z.string(),
    isError: z.boolean().optional(),
  }),
  // [inferred] An MCP connection with `oauth: true` needs someone to connect it: the turn waits
  // (docs/agent-folders.md, "MCP connections"). authorizeUrl is the provider's page to open.
  event("connection.auth_requested", {
    connection: id,
    authorizeUrl: z.string(),
    expiresAt: z.string(),
  }),
  // [inferred] How the wait ended: connected, expired (10 minutes), or cancelled (stop, preempt).
  event("connection.auth_resolved", {
    connection: id,
    outcome: z.enum(["connected", "expired", "cancelled"]),
  }),
  // [inferred]
  event("artifact.tagged", { kind: id, key: id, title: z.string().optional(), data: z.json().optional() }),
]);

export type SessionEvent = z.infer<typeof sessionEventSchema>;
export type SessionEventType = SessionEvent["type"];
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
export type Usage = z.infer<typeof usageSchema>;

export const sessionEventTypes: readonly SessionEventType[] = Object.freeze(
  sessionEventSchema.options.map((option) => option.shape.type.value),
);

export function isSessionEventType(value: string): value is SessionEventType {
  return (sessionEventTypes as readonly string[]).includes(value);
}
