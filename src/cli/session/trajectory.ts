// A session's events as what happened: per turn the message, the tool calls with their inputs,
// outputs and approvals, the reply and the token usage. `agentfold run`, `call` and `trajectory`
// print this one shape (docs/cli.md, "The trajectory shape").
import type { SessionEvent, Usage } from "@/agents/sdk/events";

export type TrajectoryCall = {
  callId: string;
  tool: string;
  input: unknown;
  /** pending: asked for, no result yet; waiting: parked for a person's approval. */
  status: "pending" | "waiting" | "completed" | "failed" | "denied";
  output?: unknown;
  stubbed?: true;
  approval?: { decision: "approved" | "denied"; by?: string; reason?: string };
  /** The subagent call it was made under. */
  parentCallId?: string;
};

export type TurnStatus = "running" | "waiting" | "completed" | "failed" | "cancelled";

export type TrajectoryTurn = {
  turnId: string;
  messages: string[];
  status: TurnStatus;
  reply: string | null;
  toolCalls: TrajectoryCall[];
  usage?: Usage;
  error?: string;
};

export type Trajectory = {
  sessionId: string | null;
  /** The last turn's. */
  status: TurnStatus | "idle";
  reply: string | null;
  toolCalls: TrajectoryCall[];
  usage: Usage;
  turns: TrajectoryTurn[];
};

const noUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

function addUsage(sum: Usage, more: Usage): void {
  sum.inputTokens += more.inputTokens;
  sum.outputTokens += more.outputTokens;
  sum.cacheReadTokens += more.cacheReadTokens;
  sum.cacheWriteTokens += more.cacheWriteTokens;
  if (more.reasoningTokens !== undefined) sum.reasoningTokens = (sum.reasoningTokens ?? 0) + more.reasoningTokens;
}

function principalName(principal: { kind: string; id: string } | undefined): string | undefined {
  return principal && `${principal.kind}:${principal.id}`;
}

/** Events in index order, as a stream or GET …/events gives them; a partial log (a turn still
 * running) gives its turn as running. */
export function trajectoryOf(events: readonly SessionEvent[]): Trajectory {
  const turns = new Map<string, TrajectoryTurn>();
  const calls = new Map<string, TrajectoryCall>();
  // Which subagent call the current step of each turn belongs to: its text is not the reply.
  const stepParent = new Map<string, string | undefined>();
  const turnOf = (turnId: string): TrajectoryTurn => {
    let turn = turns.get(turnId);
    if (!turn) {
      turn = { turnId, messages: [], status: "running", reply: null, toolCalls: [] };
      turns.set(turnId, turn);
    }
    return turn;
  };
  for (const event of events) {
    const turn = event.turnId ? turnOf(event.turnId) : undefined;
    if (!turn) continue;
    switch (event.type) {
      case "message.received":
      case "nudge.delivered":
        if (event.data.text) turn.messages.push(event.data.text);
        break;
      case "step.started":
        stepParent.set(turn.turnId, event.data.parentCallId);
        break;
      case "message.completed":
        if (stepParent.get(turn.turnId) === undefined) turn.reply = event.data.text;
        break;
      case "actions.requested":
        for (const call of event.data.calls) {
          const entry: TrajectoryCall = {
            callId: call.callId,
            tool: call.toolName,
            input: call.args ?? {},
            status: "pending",
            ...(call.parentCallId ? { parentCallId: call.parentCallId } : {}),
          };
          calls.set(call.callId, entry);
          turn.toolCalls.push(entry);
        }
        break;
      case "action.approval_requested": {
        const call = calls.get(event.data.callId);
        if (call) call.status = "waiting";
        turn.status = "waiting";
        break;
      }
      case "action.approval_resolved": {
        const call = calls.get(event.data.callId);
        if (!call) break;
        const by = principalName(event.data.approvedBy);
        call.approval = {
          decision: event.data.decision,
          ...(by ? { by } : {}),
          ...(event.data.reason ? { reason: event.data.reason } : {}),
        };
        call.status = event.data.decision === "denied" ? "denied" : "pending";
        if (turn.status === "waiting") turn.status = "running";
        break;
      }
      case "action.result": {
        const call = calls.get(event.data.callId);
        if (!call) break;
        if (call.status !== "denied") call.status = event.data.isError ? "failed" : "completed";
        call.output = event.data.output;
        if (event.data.stubbed) call.stubbed = true;
        break;
      }
      case "turn.completed":
        turn.status = "completed";
        if (event.data.usage) turn.usage = event.data.usage;
        break;
      case "turn.failed":
        turn.status = event.data.status === "cancelled" ? "cancelled" : "failed";
        turn.error = event.data.message;
        break;
    }
  }
  const ordered = [...turns.values()];
  const usage = noUsage();
  for (const turn of ordered) if (turn.usage) addUsage(usage, turn.usage);
  const last = ordered.at(-1);
  return {
    sessionId: events[0]?.sessionId ?? null,
    status: last?.status ?? "idle",
    reply: last?.reply ?? null,
    toolCalls: ordered.flatMap((t) => t.toolCalls),
    usage,
    turns: ordered,
  };
}
