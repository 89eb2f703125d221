// What an MCP client is told while `ask` waits: one notifications/progress per event of the turn,
// `progress` counting them (MCP wants it to grow; no total is known) and `message` saying in a
// few words what happened. The first names the session, so a client that loses the answer can
// still `check` it. The events themselves stay on the session's stream.
import type { SessionEvent } from "@/agents/sdk/events";

const maxMessage = 200;

export function progressMessage(event: SessionEvent): string {
  const text = describe(event);
  return text.length > maxMessage ? `${text.slice(0, maxMessage - 1)}…` : text;
}

function describe(event: SessionEvent): string {
  switch (event.type) {
    case "message.received":
      return `message received in session ${event.sessionId}`;
    case "turn.queued":
      return `queued (position ${event.data.position})`;
    case "turn.started":
      return "turn started";
    case "step.started":
      return `step ${event.data.step + 1}${event.data.attempt ? ` (attempt ${event.data.attempt})` : ""}`;
    case "reasoning.appended":
    case "reasoning.completed":
      return "thinking";
    case "message.appended":
      return `writing: ${event.data.delta}`;
    case "message.completed":
      return "reply written";
    case "actions.requested":
      return `calling ${event.data.calls.map((call) => call.toolName).join(", ")}`;
    case "action.result":
      return `${event.data.toolName} ${event.data.isError ? "failed" : "returned"}`;
    case "action.tool_retry":
      return `retrying ${event.data.toolName} (attempt ${event.data.attempt})`;
    case "action.approval_requested":
      return `${event.data.toolName} waits for approval`;
    case "action.approval_resolved":
      return `call ${event.data.decision}`;
    case "subagent.called":
      return `asking subagent ${event.data.subagent}`;
    case "subagent.completed":
      return `subagent ${event.data.subagent} answered`;
    case "turn.completed":
      return "turn completed";
    case "turn.failed":
      return `turn failed: ${event.data.message}`;
    default:
      return event.type;
  }
}
