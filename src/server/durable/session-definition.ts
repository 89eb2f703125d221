// The `session` virtual object as its senders see it (the object itself, schedules, reminders):
// its name and handler, without its code (session-object.ts).
import type * as restate from "@restatedev/restate-sdk";
import type { TurnRequest } from "./runtime";

type SessionHandlers = { runTurn: (ctx: restate.ObjectContext, turn: TurnRequest) => Promise<void> };
/** How other handlers send a turn to a session's object. */
export const sessionDefinition = { name: "session" } as restate.VirtualObjectDefinition<"session", SessionHandlers>;
