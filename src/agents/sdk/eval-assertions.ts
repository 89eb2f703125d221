// The pure half of eval assertions (docs/agent-folders.md, "The `define*` helpers"): matchers for
// `t.check` / `t.require`, and trajectory checks computed from a session's events. The runner
// records every result instead of stopping at the first failure.
import { z } from "zod";
import type { SessionEvent } from "./events";
import { formatPath } from "./validation";

export type AssertionResult = { pass: boolean; message: string };

export type Matcher = { description: string; test(value: unknown): AssertionResult };

function show(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A string containing `expected` (or matching the regex). */
export function includes(expected: string | RegExp): Matcher {
  const isText = typeof expected === "string";
  const shown = isText ? JSON.stringify(expected) : String(expected);
  const description = `${isText ? "includes" : "matches"} ${shown}`;
  // A global or sticky regex keeps lastIndex between calls; a copy without those flags answers
  // the same every time.
  const pattern = isText ? undefined : new RegExp(expected.source, expected.flags.replace(/[gy]/g, ""));
  return {
    description,
    test(value) {
      if (typeof value !== "string") {
        return { pass: false, message: `expected a string that ${description}, got ${show(value)}` };
      }
      const pass = pattern ? pattern.test(value) : value.includes(expected as string);
      const failure = `expected ${show(value)} to ${isText ? "include" : "match"} ${shown}`;
      return { pass, message: pass ? description : failure };
    },
  };
}

/** A value the zod schema accepts. */
export function matches(schema: z.core.$ZodType): Matcher {
  return {
    description: "matches the schema",
    test(value) {
      const result = z.safeParse(schema, value);
      if (result.success) return { pass: true, message: "matches the schema" };
      const problems = result.error.issues.map((issue) => `${formatPath(issue.path) || "(value)"}: ${issue.message}`);
      return { pass: false, message: `does not match the schema: ${problems.join("; ")}` };
    },
  };
}

/** A value `predicate` accepts (BDK's custom matcher): `satisfies((n) => n > 0, "is positive")`. */
export function satisfies(predicate: (value: unknown) => boolean, description = "satisfies the predicate"): Matcher {
  return {
    description,
    test(value) {
      let pass = false;
      try {
        pass = predicate(value) === true;
      } catch (error) {
        return { pass: false, message: `${description}: the predicate threw: ${(error as Error).message}` };
      }
      return { pass, message: pass ? description : `expected ${show(value)} to satisfy: ${description}` };
    },
  };
}

function toolNames(events: readonly SessionEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === "actions.requested" ? event.data.calls.map((call) => call.toolName) : [],
  );
}

/** The trajectory checks behind `t.succeeded()`, `t.calledTool()`, `t.notCalledTool()`, `t.reply`. */
export function trajectoryChecks(events: readonly SessionEvent[]) {
  const failed = events.find((event) => event.type === "turn.failed");
  const completed = events.some((event) => event.type === "turn.completed");
  const replies = events.filter((event) => event.type === "message.completed");
  const called = toolNames(events);
  return {
    succeeded(): AssertionResult {
      if (failed) return { pass: false, message: `a turn failed: ${failed.data.message}` };
      return { pass: completed, message: completed ? "every turn completed" : "no turn completed" };
    },
    calledTool(name: string): AssertionResult {
      const pass = called.includes(name);
      const failure = `expected a call to ${name}; called: ${called.join(", ") || "none"}`;
      return { pass, message: pass ? `called ${name}` : failure };
    },
    notCalledTool(name: string): AssertionResult {
      const pass = !called.includes(name);
      return { pass, message: pass ? `did not call ${name}` : `expected no call to ${name}` };
    },
    /** The last assistant message; empty when there was none. */
    reply: replies.at(-1)?.data.text ?? "",
  };
}
