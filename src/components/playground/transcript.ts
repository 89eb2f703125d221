// Folds session events into the transcript, one pure step per event. Events at or below the last
// index seen are ignored: a reconnect or a replay may deliver an event again, and the transcript
// must not show it twice.
import type { SessionEvent, SessionEventOf } from "@/agents/sdk/events";
import { endConnectionWaits, requestConnection, resolveConnection } from "./transcript-connections";
import { emptyTranscript, type ToolCall, type Transcript, type TranscriptItem } from "./transcript-types";

export * from "./transcript-types";

export function applyEvents(transcript: Transcript, events: readonly SessionEvent[]): Transcript {
  return events.reduce(applyEvent, transcript);
}

export function applyEvent(transcript: Transcript, event: SessionEvent): Transcript {
  if (event.index <= transcript.lastIndex) return transcript;
  return { ...fold(transcript, event), lastIndex: event.index };
}

export function buildTranscript(events: readonly SessionEvent[]): Transcript {
  return applyEvents(emptyTranscript, events);
}

function fold(t: Transcript, e: SessionEvent): Transcript {
  switch (e.type) {
    case "session.started":
      return {
        ...t,
        session: {
          mode: e.data.mode,
          purpose: e.data.purpose,
          dryRun: e.data.dryRun ?? false,
          title: e.data.title,
          ...(e.data.notes?.length ? { notes: e.data.notes } : {}),
        },
      };
    case "message.received":
      return push(close(t), {
        kind: "user",
        key: `user-${e.index}`,
        turnId: e.turnId,
        text: e.data.text,
        at: e.at,
        isNudge: false,
      });
    case "nudge.delivered":
      return push(close(t), {
        kind: "user",
        key: `user-${e.index}`,
        turnId: e.turnId,
        text: e.data.text ?? "",
        at: e.at,
        isNudge: true,
      });
    case "turn.queued":
      return setTurn(t, e.turnId, { state: "queued", position: e.data.position });
    case "turn.started":
      return setTurn(t, e.turnId, { state: "running", position: undefined, startedAt: e.at });
    case "turn.completed":
      return setTurn(close(t), e.turnId, { state: "completed", usage: e.data.usage, cost: e.data.cost, endedAt: e.at });
    case "turn.failed":
      return failTurn(close(t), e);
    case "step.started":
      return startStep(t, e);
    case "reasoning.appended":
      return appendDelta(t, e, "reasoning", e.data.delta);
    case "reasoning.completed":
      return completeReasoning(t, e);
    case "message.appended":
      return appendDelta(t, e, "assistant", e.data.delta);
    case "message.completed":
      return completeMessage(t, e);
    case "actions.requested":
      return requestCalls(t, e);
    case "action.result":
      return updateCall(t, e, e.data.callId, e.data.toolName, (call) => ({
        ...call,
        state: e.data.stubbed ? "stubbed" : e.data.isError ? "error" : "done",
        output: e.data.output,
        durationMs: Math.max(0, Date.parse(e.at) - Date.parse(call.requestedAt)),
      }));
    case "action.tool_retry":
      return updateCall(t, e, e.data.callId, e.data.toolName, (call) => ({
        ...call,
        retries: [...call.retries, { attempt: e.data.attempt, error: e.data.error }],
      }));
    case "action.approval_requested":
      return updateCall(t, e, e.data.callId, e.data.toolName, (call) => ({
        ...call,
        args: call.args ?? e.data.args,
        approval: { status: "pending", args: e.data.args, requestedAt: e.at, requestedBy: e.data.requestedBy },
      }));
    case "action.approval_resolved":
      return updateCall(t, e, e.data.callId, undefined, (call) => ({
        ...call,
        approval: {
          args: call.args,
          requestedAt: e.at,
          ...call.approval,
          status: e.data.decision,
          approvedBy: e.data.approvedBy,
          reason: e.data.reason,
          decidedAt: e.at,
        },
      }));
    case "subagent.called":
      return updateCall(t, e, e.data.callId, "task", (call) => ({
        ...call,
        subagent: { name: e.data.subagent, prompt: e.data.prompt },
      }));
    case "subagent.completed":
      return updateCall(t, e, e.data.callId, "task", (call) => ({
        ...call,
        subagent: {
          name: e.data.subagent,
          prompt: call.subagent?.prompt ?? "",
          result: e.data.result,
          isError: e.data.isError,
        },
      }));
    case "connection.auth_requested":
      return { ...close(t), items: requestConnection(t.items, e) };
    case "connection.auth_resolved":
      return { ...t, items: resolveConnection(t.items, e) };
    case "artifact.tagged":
      return push(close(t), {
        kind: "artifact",
        key: `artifact-${e.index}`,
        turnId: e.turnId,
        artifact: { kind: e.data.kind, key: e.data.key, title: e.data.title, data: e.data.data },
        at: e.at,
      });
    default:
      // The rest of the session lifecycle and agent binding show in the raw pane only.
      return t;
  }
}

function push(t: Transcript, item: TranscriptItem): Transcript {
  return { ...t, items: [...t.items, item] };
}

/** Ends the text and reasoning blocks: the next delta starts a new one below what came between. */
function close(t: Transcript): Transcript {
  return t.openAssistant || t.openReasoning ? { ...t, openAssistant: undefined, openReasoning: undefined } : t;
}

function setTurn(t: Transcript, turnId: string | undefined, patch: Partial<Transcript["turns"][string]>): Transcript {
  if (!turnId) return t;
  const current = t.turns[turnId] ?? { turnId, state: "running" as const };
  return { ...t, turns: { ...t.turns, [turnId]: { ...current, ...patch } } };
}

function failTurn(t: Transcript, e: SessionEventOf<"turn.failed">): Transcript {
  const state = e.data.status === "cancelled" ? "cancelled" : "error";
  // A call left without a result will never get one: the turn that waited for it is over.
  const calls = { ...t.calls };
  for (const call of Object.values(t.calls)) {
    if (call.turnId === e.turnId && call.state === "running") calls[call.callId] = { ...call, state: "cancelled" };
  }
  return setTurn({ ...t, calls, items: endConnectionWaits(t.items, e.turnId) }, e.turnId, {
    state,
    message: e.data.message,
    endedAt: e.at,
  });
}

function startStep(t: Transcript, e: SessionEventOf<"step.started">): Transcript {
  const parentCallId = e.data.parentCallId;
  if (parentCallId) {
    const parent = t.calls[parentCallId];
    return parent
      ? { ...t, calls: { ...t.calls, [parentCallId]: { ...parent, subagentSteps: parent.subagentSteps + 1 } } }
      : t;
  }
  const turnKey = e.turnId ?? "";
  let items = t.items;
  const mark = t.stepStarts[turnKey];
  if (e.data.attempt !== undefined && mark !== undefined) {
    // The step's earlier attempt was cut off by a crash and runs again from the start: its text
    // and reasoning deltas will stream anew, so the partial ones go. Tool calls stay, keyed by id:
    // the rerun requests them again with the same ids. Tags stay: their records were stored;
    // so do Connect cards, which are no step's output.
    items = items.filter(
      (item, position) =>
        position < mark || item.turnId !== e.turnId || ["tool", "user", "artifact", "connection"].includes(item.kind),
    );
  }
  return { ...close(t), items, stepStarts: { ...t.stepStarts, [turnKey]: items.length } };
}

function appendDelta(t: Transcript, e: SessionEvent, kind: "assistant" | "reasoning", delta: string): Transcript {
  const openKey = kind === "assistant" ? t.openAssistant : t.openReasoning;
  const position = openKey ? findFromEnd(t.items, (item) => item.key === openKey) : -1;
  if (position >= 0) {
    const items = [...t.items];
    const item = items[position] as Extract<TranscriptItem, { kind: "assistant" | "reasoning" }>;
    items[position] = { ...item, text: item.text + delta };
    return { ...t, items };
  }
  const key = `${kind}-${e.index}`;
  const next = push(t, { kind, key, turnId: e.turnId, text: delta, isComplete: false });
  return kind === "assistant" ? { ...next, openAssistant: key } : { ...next, openReasoning: key };
}

function completeReasoning(t: Transcript, e: SessionEventOf<"reasoning.completed">): Transcript {
  const position = t.openReasoning ? findFromEnd(t.items, (item) => item.key === t.openReasoning) : -1;
  if (position < 0) {
    if (!e.data.text) return t;
    return push(t, {
      kind: "reasoning",
      key: `reasoning-${e.index}`,
      turnId: e.turnId,
      text: e.data.text,
      isComplete: true,
    });
  }
  const items = [...t.items];
  items[position] = {
    ...(items[position] as Extract<TranscriptItem, { kind: "reasoning" }>),
    text: e.data.text,
    isComplete: true,
  };
  return { ...t, items, openReasoning: undefined };
}

/** The final step's text replaces what its deltas built; earlier steps' text stays as it was. */
function completeMessage(t: Transcript, e: SessionEventOf<"message.completed">): Transcript {
  const stepStart = t.stepStarts[e.turnId ?? ""] ?? 0;
  const position = findFromEnd(
    t.items,
    (item, at) => at >= stepStart && item.kind === "assistant" && item.turnId === e.turnId,
  );
  const closed = close(t);
  if (position < 0) {
    if (!e.data.text) return closed;
    return push(closed, {
      kind: "assistant",
      key: `assistant-${e.index}`,
      turnId: e.turnId,
      text: e.data.text,
      isComplete: true,
    });
  }
  const items = [...closed.items];
  items[position] = {
    ...(items[position] as Extract<TranscriptItem, { kind: "assistant" }>),
    text: e.data.text,
    isComplete: true,
  };
  return { ...closed, items };
}

function requestCalls(t: Transcript, e: SessionEventOf<"actions.requested">): Transcript {
  let next = e.data.calls.some((call) => !call.parentCallId) ? close(t) : t;
  for (const request of e.data.calls) {
    if (next.calls[request.callId]) continue;
    const call = newCall(e, request.callId, request.toolName, request);
    next = { ...next, calls: { ...next.calls, [call.callId]: call } };
    next = attach(next, call, e.index);
  }
  return next;
}

/** A subagent's call goes under the call that started the subagent; any other is top level. */
function attach(t: Transcript, call: ToolCall, index: number): Transcript {
  const parent = call.parentCallId ? t.calls[call.parentCallId] : undefined;
  if (parent)
    return { ...t, calls: { ...t.calls, [parent.callId]: { ...parent, children: [...parent.children, call.callId] } } };
  return push(t, { kind: "tool", key: `tool-${call.callId}-${index}`, turnId: call.turnId, callId: call.callId });
}

function newCall(
  e: SessionEvent,
  callId: string,
  toolName: string,
  request?: { args?: unknown; parentCallId?: string },
): ToolCall {
  return {
    callId,
    toolName,
    turnId: e.turnId,
    parentCallId: request?.parentCallId,
    args: request?.args,
    state: "running",
    requestedAt: e.at,
    retries: [],
    subagentSteps: 0,
    children: [],
  };
}

/** Updates a call; one this client never saw requested (a log cut short) is added as it comes. */
function updateCall(
  t: Transcript,
  e: SessionEvent,
  callId: string,
  toolName: string | undefined,
  update: (call: ToolCall) => ToolCall,
): Transcript {
  const existing = t.calls[callId];
  if (existing) return { ...t, calls: { ...t.calls, [callId]: update(existing) } };
  const call = update(newCall(e, callId, toolName ?? "tool"));
  return attach({ ...t, calls: { ...t.calls, [callId]: call } }, call, e.index);
}

function findFromEnd<T>(list: readonly T[], test: (item: T, position: number) => boolean): number {
  for (let position = list.length - 1; position >= 0; position--) if (test(list[position]!, position)) return position;
  return -1;
}
