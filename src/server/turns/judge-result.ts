// The result contract (docs/turns.md "Result contract"): the agent's `result.ts` judges the turn's
// final text in the sandbox and commits it, fails the turn, or rejects it with feedback that the
// same turn revises against, at most maxRepairs times.
import type { ResultOutcome } from "@/agents/sandbox/protocol";
import type { Sandbox } from "@/agents/sandbox/sandbox";
import type { Step, TurnSetup } from "./engine";
import { sessionInfo } from "./turn-setup";

/** At most this many `ctx.reject` repairs per turn. */
export const maxRepairs = 2;

/** What the turn does with its reply: end with it (and the contract's result), fail, or revise it. */
export type ResultJudgement =
  | { kind: "committed"; result: unknown }
  | { kind: "failed"; message: string }
  | { kind: "repair"; feedback: string }
  | { kind: "cancelled" };

export async function judgeResult(options: {
  step: Step;
  setup: TurnSetup;
  sandbox: () => Sandbox;
  signal: AbortSignal;
  turnId: string;
  text: string;
  /** Repairs made so far in this turn: the step's name, and whether another is allowed. */
  repairs: number;
}): Promise<ResultJudgement> {
  const { turnId, repairs } = options;
  // Journaled per reply: a run of the turn after a crash gets the same verdict back, without
  // asking agent code again (it might answer differently).
  const verdict = await options.step(`${turnId}:result:${repairs}`, () => askContract(options));
  if (verdict.outcome === "cancelled") return { kind: "cancelled" };
  if (verdict.outcome === "committed") return { kind: "committed", result: verdict.result };
  if (verdict.outcome === "failed")
    return { kind: "failed", message: `the result contract failed: ${verdict.message}` };
  if (repairs >= maxRepairs) {
    return {
      kind: "failed",
      message: `the result contract rejected the reply ${repairs + 1} times; last: ${verdict.message}`,
    };
  }
  return { kind: "repair", feedback: verdict.message };
}

async function askContract(options: {
  setup: TurnSetup;
  sandbox: () => Sandbox;
  text: string;
  signal: AbortSignal;
}): Promise<ResultOutcome | { outcome: "cancelled" }> {
  const { setup, sandbox, text, signal } = options;
  if (signal.aborted) return { outcome: "cancelled" };
  if (text.trim() === "") return { outcome: "failed", message: "the reply is empty" };
  try {
    return await sandbox().call(
      "runResult",
      { file: setup.manifest.result!.file, text, session: sessionInfo(setup) },
      { signal },
    );
  } catch (error) {
    if (signal.aborted) return { outcome: "cancelled" };
    return { outcome: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}
