// `@cursor/bdk/extensions/jev` (and `agentfold/extensions/jev`, `@cursor/july/…`): `decide`, one
// typed decision by the agent's model from a tool, hook or schedule, with no second model turn
// (docs/compatibility.md, "decide"). The model call is the platform's: the sandbox registers the
// host call that makes it (src/agents/sandbox/decide-api.ts), so here it is looked up, not imported.
import type { JsonValue } from "../types";
import { decideHostKey, decisionRequestProblem } from "./decision";

type Ask = { question: string; context?: JsonValue };

export type DecideChoice<T extends string> = Ask & { choices: readonly T[] };
export type DecideScore = Ask & { score: { min: number; max: number } };
export type DecideBoolean = Ask & { boolean: true };
export type DecideRequest = DecideChoice<string> | DecideScore | DecideBoolean;

type DecideHost = (request: DecideRequest) => Promise<string | number | boolean>;

/** One of `choices`. */
export function decide<const T extends string>(request: DecideChoice<T>): Promise<T>;
/** A number from `score.min` to `score.max`. */
export function decide(request: DecideScore): Promise<number>;
export function decide(request: DecideBoolean): Promise<boolean>;
export async function decide(request: DecideRequest): Promise<string | number | boolean> {
  const problem = decisionRequestProblem(request);
  if (problem) throw new TypeError(`decide: ${problem}`);
  const host = (globalThis as Record<symbol, DecideHost | undefined>)[decideHostKey];
  if (!host)
    throw new Error(
      "decide: the platform's model is reachable only while the platform runs this code (a tool's execute, a hook, a schedule's run)",
    );
  return host(request);
}
