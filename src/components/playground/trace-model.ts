// A session's event log as a waterfall for the Trace tab: per turn a row, under it the turn's
// model steps (each with its model call and its tool calls), approval and Connect waits, and subagent runs.
// Every bar keeps the indices of the events it was made from, so a click shows exactly those.
// Pure and total: any list of envelopes (out of order, repeated, cut short) gives a trace.
import type { SessionEvent, SessionEventOf, Usage } from "@/agents/sdk/events";
import { principalLabel } from "./transcript-view-model";

export type TraceBarKind = "turn" | "step" | "model" | "tool" | "approval" | "connection" | "subagent";
/** `cancelled`: left open by a turn that has ended, so nothing will ever finish it. */
export type TraceBarStatus = "running" | "ok" | "error" | "cancelled";

export type TraceBar = {
  id: string;
  kind: TraceBarKind;
  label: string;
  /** Second line: a turn's message, who decided an approval, a failure's message … */
  detail?: string;
  /** Why a turn failed. */
  error?: string;
  turnId: string;
  parentId?: string;
  depth: number;
  /** Epoch milliseconds, drawn within the parent's span (clocks of two processes may disagree). */
  startMs: number;
  endMs: number;
  /** No event ended it: drawn to its parent's end or, in a turn still running, to now. */
  isOpen: boolean;
  /** Reported by the log (a step's `durationMs`) or end minus start; none while open. */
  durationMs?: number;
  status: TraceBarStatus;
  usage?: Usage;
  costUsd?: number;
  /** The events that make this bar, ascending; a bar's start and end events may be shared. */
  indices: number[];
};

export type TraceTurn = { turnId: string; number: number; startMs: number; endMs: number; bars: TraceBar[] };

export type Trace = {
  /** In log order; each turn's bars depth-first, children in the order their first event came. */
  turns: TraceTurn[];
  byIndex: ReadonlyMap<number, SessionEvent>;
};

/** `nowMs`: where bars of a running turn end (the live playground passes the clock). */
export function buildTrace(events: readonly SessionEvent[], options: { nowMs?: number } = {}): Trace {
  const byIndex = new Map<number, SessionEvent>();
  for (const event of events) if (!byIndex.has(event.index)) byIndex.set(event.index, event);
  const ordered = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const turns = new Map<string, TurnDraft>();
  for (const event of ordered) {
    if (!event.turnId) continue;
    let turn = turns.get(event.turnId);
    if (!turn) turns.set(event.turnId, (turn = newTurn(event)));
    fold(turn, event);
  }
  const lastMs = Math.max(-Infinity, ...ordered.map((event) => Date.parse(event.at)).filter(Number.isFinite));
  const nowMs = Math.max(options.nowMs ?? -Infinity, lastMs);
  return {
    turns: [...turns.values()].map((turn, position) => finish(turn, position + 1, nowMs)),
    byIndex,
  };
}

/** The envelopes a bar was made from, in log order. */
export function barEvents(trace: Trace, bar: TraceBar): SessionEvent[] {
  return bar.indices.flatMap((index) => trace.byIndex.get(index) ?? []);
}

export function traceBars(trace: Trace): TraceBar[] {
  return trace.turns.flatMap((turn) => turn.bars);
}

type Draft = {
  id: string;
  kind: TraceBarKind;
  label: string;
  detail?: string;
  error?: string;
  startMs: number;
  endMs?: number;
  reportedMs?: number;
  retries?: number;
  status: TraceBarStatus;
  usage?: Usage;
  costUsd?: number;
  indices: number[];
  children: Draft[];
};

type TurnDraft = {
  turnId: string;
  root: Draft;
  nextId: number;
  tools: Map<string, Draft>;
  subagents: Map<string, Draft>;
  approvals: Map<string, Draft>;
  /** Per connection name: the bar of its latest Connect wait. */
  connections: Map<string, Draft>;
  /** Per subagent (its call id, "" for the agent itself): the step running now and its model call. */
  openSteps: Map<string, { step: Draft; number: number; model?: Draft }>;
};

function newTurn(event: SessionEvent): TurnDraft {
  // The turn's first event starts its bar, even one a lower bar also shows (a log cut short).
  const root = draft(`${event.turnId}`, "turn", "Turn", event);
  return {
    turnId: event.turnId!,
    root,
    nextId: 0,
    tools: new Map(),
    subagents: new Map(),
    approvals: new Map(),
    connections: new Map(),
    openSteps: new Map(),
  };
}

function draft(id: string, kind: TraceBarKind, label: string, event: SessionEvent): Draft {
  return { id, kind, label, startMs: Date.parse(event.at), status: "running", indices: [event.index], children: [] };
}

function child(turn: TurnDraft, parent: Draft, kind: TraceBarKind, label: string, event: SessionEvent): Draft {
  const bar = draft(`${turn.turnId}:${kind}:${turn.nextId++}`, kind, label, event);
  parent.children.push(bar);
  return bar;
}

function add(bar: Draft, event: SessionEvent) {
  if (bar.indices.at(-1) !== event.index) bar.indices.push(event.index);
}

function end(bar: Draft, event: SessionEvent, status: TraceBarStatus = "ok") {
  add(bar, event);
  if (bar.endMs !== undefined) return;
  bar.endMs = Date.parse(event.at);
  bar.status = status;
}

function fold(turn: TurnDraft, e: SessionEvent) {
  const { root } = turn;
  switch (e.type) {
    case "message.received":
      add(root, e);
      root.detail ??= e.data.text;
      return;
    case "turn.completed":
      end(root, e);
      root.usage = e.data.usage;
      root.costUsd = e.data.cost?.totalUsd;
      return;
    case "turn.failed":
      end(root, e, e.data.status === "cancelled" ? "cancelled" : "error");
      root.error = e.data.message;
      return;
    case "step.started":
      return startStep(turn, e);
    case "step.completed":
      return completeStep(turn, e);
    case "reasoning.appended":
    case "reasoning.completed":
    case "message.appended": {
      // Only the agent's own steps stream text; a subagent's answer comes in subagent.completed.
      const open = turn.openSteps.get("");
      return add(open?.model ?? open?.step ?? root, e);
    }
    case "actions.requested":
      return requestActions(turn, e);
    case "actions.completed": {
      const first = e.data.callIds.map((id) => turn.tools.get(id)).find(Boolean);
      const parentCall = first ? parentCallOf(turn, first) : "";
      return add(turn.openSteps.get(parentCall)?.step ?? root, e);
    }
    case "action.tool_retry": {
      const tool = toolBar(turn, e, e.data.callId, e.data.toolName);
      add(tool, e);
      tool.retries = (tool.retries ?? 0) + 1;
      tool.detail = `retried ${tool.retries}×`;
      return;
    }
    case "action.result": {
      const tool = toolBar(turn, e, e.data.callId, e.data.toolName);
      end(tool, e, e.data.isError ? "error" : "ok");
      if (e.data.stubbed) tool.detail = "stubbed (dry run)";
      return;
    }
    case "action.approval_requested": {
      const tool = toolBar(turn, e, e.data.callId, e.data.toolName);
      const approval = child(turn, tool, "approval", "Approval wait", e);
      approval.detail = "waiting for a decision";
      turn.approvals.set(e.data.callId, approval);
      return;
    }
    case "action.approval_resolved":
      return resolveApproval(turn, e);
    case "connection.auth_requested": {
      // Each request is a wait of its own (with a new authorize URL), under the turn: connections
      // open before the first step.
      const wait = child(turn, root, "connection", `Connect ${e.data.connection}`, e);
      wait.detail = "waiting for someone to connect";
      turn.connections.set(e.data.connection, wait);
      return;
    }
    case "connection.auth_resolved":
      return resolveConnection(turn, e);
    case "subagent.called": {
      const tool = toolBar(turn, e, e.data.callId, "task");
      const run = child(turn, tool, "subagent", `Subagent ${e.data.subagent}`, e);
      turn.subagents.set(e.data.callId, run);
      return;
    }
    case "subagent.completed": {
      let run = turn.subagents.get(e.data.callId);
      if (!run) {
        run = child(turn, toolBar(turn, e, e.data.callId, "task"), "subagent", `Subagent ${e.data.subagent}`, e);
        turn.subagents.set(e.data.callId, run);
      }
      end(run, e, e.data.isError ? "error" : "ok");
      return;
    }
    default:
      // Queueing, the final text, tags, steered-in messages: the turn's own events.
      return add(root, e);
  }
}

/** A subagent's steps and calls go under the subagent run (or the call) that started them. */
function ownerOf(turn: TurnDraft, parentCallId: string | undefined): Draft {
  if (!parentCallId) return turn.root;
  return turn.subagents.get(parentCallId) ?? turn.tools.get(parentCallId) ?? turn.root;
}

function parentCallOf(turn: TurnDraft, bar: Draft): string {
  for (const [callId, open] of turn.openSteps) if (open.step.children.includes(bar)) return callId;
  return "";
}

function startStep(turn: TurnDraft, e: SessionEventOf<"step.started">) {
  const key = e.data.parentCallId ?? "";
  const open = turn.openSteps.get(key);
  if (open && open.number === e.data.step && e.data.attempt !== undefined) {
    // The earlier attempt was cut off by a crash; its model call ends where the rerun begins.
    if (open.model && open.model.endMs === undefined) end(open.model, e, "cancelled");
    add(open.step, e);
    open.step.detail = `attempt ${e.data.attempt}`;
    open.model = child(turn, open.step, "model", "Model call", e);
    return;
  }
  const step = child(turn, ownerOf(turn, e.data.parentCallId), "step", `Step ${e.data.step + 1}`, e);
  if (e.data.repair) step.detail = "repairs a rejected result";
  turn.openSteps.set(key, { step, number: e.data.step, model: child(turn, step, "model", "Model call", e) });
}

function completeStep(turn: TurnDraft, e: SessionEventOf<"step.completed">) {
  const key = e.data.parentCallId ?? "";
  let open = turn.openSteps.get(key);
  if (!open || open.number !== e.data.step) {
    // Its start is not in this log (a trace cut short): the reported duration says where it was.
    const step = child(turn, ownerOf(turn, e.data.parentCallId), "step", `Step ${e.data.step + 1}`, e);
    step.startMs = Date.parse(e.at) - e.data.durationMs;
    open = { step, number: e.data.step };
  }
  if (open.model && open.model.endMs === undefined) end(open.model, e);
  end(open.step, e);
  open.step.reportedMs = e.data.durationMs;
  turn.openSteps.delete(key);
}

function requestActions(turn: TurnDraft, e: SessionEventOf<"actions.requested">) {
  for (const call of e.data.calls) {
    const open = turn.openSteps.get(call.parentCallId ?? "");
    // The model call ends when it asks for tools; its step goes on until they have answered.
    if (open?.model && open.model.endMs === undefined) end(open.model, e);
    const existing = turn.tools.get(call.callId);
    if (existing) {
      add(existing, e);
      continue;
    }
    const tool = child(turn, open?.step ?? ownerOf(turn, call.parentCallId), "tool", call.toolName, e);
    turn.tools.set(call.callId, tool);
  }
}

/** The call's bar; one whose request is not in this log starts at the first event that names it. */
function toolBar(turn: TurnDraft, e: SessionEvent, callId: string, toolName: string): Draft {
  const existing = turn.tools.get(callId);
  if (existing) return existing;
  const open = turn.openSteps.get("");
  const tool = child(turn, open?.step ?? turn.root, "tool", toolName, e);
  turn.tools.set(callId, tool);
  return tool;
}

function resolveApproval(turn: TurnDraft, e: SessionEventOf<"action.approval_resolved">) {
  let approval = turn.approvals.get(e.data.callId);
  if (!approval || approval.endMs !== undefined) {
    approval = child(turn, toolBar(turn, e, e.data.callId, "tool"), "approval", "Approval wait", e);
    turn.approvals.set(e.data.callId, approval);
  }
  end(approval, e, e.data.decision === "approved" ? "ok" : "error");
  const by = e.data.approvedBy ? ` by ${principalLabel(e.data.approvedBy)}` : "";
  approval.detail = `${e.data.decision}${by}${e.data.reason ? ` (${e.data.reason})` : ""}`;
}

const connectionStatus = { connected: "ok", expired: "error", cancelled: "cancelled" } as const;

function resolveConnection(turn: TurnDraft, e: SessionEventOf<"connection.auth_resolved">) {
  let wait = turn.connections.get(e.data.connection);
  if (!wait || wait.endMs !== undefined) {
    wait = child(turn, turn.root, "connection", `Connect ${e.data.connection}`, e);
    turn.connections.set(e.data.connection, wait);
  }
  end(wait, e, connectionStatus[e.data.outcome]);
  wait.detail = e.data.outcome;
}

function finish(turn: TurnDraft, number: number, nowMs: number): TraceTurn {
  const bars: TraceBar[] = [];
  const visit = (bar: Draft, parent: TraceBar | undefined, depth: number) => {
    const rawEnd = bar.endMs ?? parent?.endMs ?? nowMs;
    const low = parent?.startMs ?? -Infinity;
    const high = parent?.endMs ?? Infinity;
    const startMs = clamp(bar.startMs, low, high);
    const endMs = clamp(Math.max(rawEnd, startMs), startMs, high);
    const isOpen = bar.endMs === undefined;
    // Open under an ancestor that ended: nothing is left to finish it.
    const isOrphan = isOpen && parent !== undefined && (!parent.isOpen || parent.status === "cancelled");
    const out: TraceBar = {
      id: bar.id,
      kind: bar.kind,
      label: bar.kind === "turn" ? `Turn ${number}` : bar.label,
      ...(bar.detail !== undefined ? { detail: bar.detail } : {}),
      ...(bar.error !== undefined ? { error: bar.error } : {}),
      turnId: turn.turnId,
      ...(parent ? { parentId: parent.id } : {}),
      depth,
      startMs,
      endMs,
      isOpen,
      ...(durationOf(bar) !== undefined ? { durationMs: durationOf(bar) } : {}),
      status: isOrphan ? "cancelled" : bar.status,
      ...(bar.usage ? { usage: bar.usage } : {}),
      ...(bar.costUsd !== undefined ? { costUsd: bar.costUsd } : {}),
      indices: bar.indices,
    };
    bars.push(out);
    for (const next of bar.children) visit(next, out, depth + 1);
  };
  visit(turn.root, undefined, 0);
  const [head] = bars;
  return { turnId: turn.turnId, number, startMs: head!.startMs, endMs: head!.endMs, bars };
}

function durationOf(bar: Draft): number | undefined {
  if (bar.reportedMs !== undefined) return bar.reportedMs;
  return bar.endMs === undefined ? undefined : Math.max(0, bar.endMs - bar.startMs);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
