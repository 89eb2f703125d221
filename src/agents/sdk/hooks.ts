// `agentfold/hooks`: defineHook (docs/agent-folders.md, "The `define*` helpers"). Hooks observe
// events after they are durably recorded; they cannot change the turn.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import { isSessionEventType, type SessionEvent, type SessionEventOf, type SessionEventType } from "./events";
import type { HostServices } from "./host";
import type { SessionArtifactsApi } from "./tool-context";
import type { HandlerSession } from "./types";
import { define } from "./validation";

export type HookContext = {
  session: HandlerSession & { sdkAgentId?: string };
  agent: { name: string };
  /** `continuationToken` is null when the session cannot take follow-ups. */
  channel: { id: string; continuationToken: string | null };
  /** Read secrets inside the handler: hosted deployments bind them after the module loads. */
  host: HostServices;
  /** `tag` fills in sessionId and turnId. */
  artifacts: SessionArtifactsApi;
  stateRoot: string;
};

export type EventHandler<E, C> = (event: E, ctx: C) => void | Promise<void>;

/** Handlers by event type; a typed key narrows `event`, "*" receives every event. */
export type EventHandlers<C> = { [T in SessionEventType]?: EventHandler<SessionEventOf<T>, C> } & {
  "*"?: EventHandler<SessionEvent, C>;
};

export type HookConfig = { events: EventHandlers<HookContext> };
export type HookDescriptor = Descriptor<"hook", HookConfig>;

/** An events map: keys are event types or "*", values are functions. Also used by channels. */
export const eventHandlersSchema = z.record(z.string(), z.unknown()).superRefine((events, ctx) => {
  // Keys and values are checked in one pass so both kinds of mistake are reported together.
  for (const [key, handler] of Object.entries(events)) {
    if (key !== "*" && !isSessionEventType(key)) {
      const message = 'unknown event type (expected a session event type or "*")';
      ctx.addIssue({ code: "custom", path: [key], message });
    } else if (typeof handler !== "function") {
      ctx.addIssue({ code: "custom", path: [key], message: "expected a function" });
    }
  }
});

// An empty map is accepted: `validate` warns and the hook is skipped.
const hookConfigSchema = z.strictObject({ events: eventHandlersSchema });

export function defineHook(config: HookConfig): HookDescriptor {
  return define("hook", "defineHook", hookConfigSchema, config);
}
