// One eval case in the sandbox (docs/evals.md): the case's test gets `t`, whose `send` runs a
// real turn through the platform (host call `eval.send`: an eval-purpose session, the agent's own
// model and tools) and whose helpers record every assertion instead of stopping at the first
// failure; `require` stops the case, `judge` asks the platform's grading model. Runs ONLY in
// the sandbox, like all agent code.
import type { AssertionResult, EvalCase, EvalConfig, EvalT, Matcher } from "@/agents/sdk/evals";
import { trajectoryChecks } from "@/agents/sdk/eval-assertions";
import type { SessionEvent } from "@/agents/sdk/events";
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { hostCall } from "./host-calls";

export type EvalCaseRequest = { file: string; index?: number; caseId?: string };

export type EvalAssertionRecord = { kind: string; pass: boolean; message: string };

export type EvalCaseOutcome = { assertions: EvalAssertionRecord[]; error?: string };

/** What `eval.send` answers: the session and the events of the turn that took the message. */
type SentTurn = { sessionId: string; events: SessionEvent[] };

class RequireFailed extends Error {}

export async function runEvalCase(
  load: () => Promise<unknown>,
  request: EvalCaseRequest,
  requestId: number,
): Promise<EvalCaseOutcome> {
  const exported = await load();
  const chosen = request.index === undefined ? exported : (exported as unknown[])[request.index];
  if (descriptorKindOf(chosen) !== "eval") return { assertions: [], error: `${request.file} has no such defineEval` };
  const config = chosen as unknown as EvalConfig;
  const test = request.caseId
    ? config.cases?.find((c: EvalCase) => c.id === request.caseId)?.test
    : (config.test ?? undefined);
  if (!test) return { assertions: [], error: `no case "${request.caseId}" in ${request.file}` };

  const assertions: EvalAssertionRecord[] = [];
  const record = (kind: string, result: AssertionResult) =>
    assertions.push({ kind, pass: result.pass, message: result.message });
  let sessionId: string | undefined;
  let all: SessionEvent[] = [];
  let last: SessionEvent[] = [];
  const t: EvalT = {
    async send(message, options) {
      const sent = (await hostCall(requestId, "eval.send", {
        message,
        ...(sessionId ? { sessionId } : {}),
        ...(options ?? {}),
      })) as SentTurn;
      sessionId = sent.sessionId;
      last = sent.events;
      all = [...all, ...sent.events];
      return { sessionId: sent.sessionId, reply: trajectoryChecks(sent.events).reply, events: sent.events };
    },
    succeeded: () => void record("succeeded", trajectoryChecks(all).succeeded()),
    calledTool: (name) => void record("calledTool", trajectoryChecks(all).calledTool(name)),
    notCalledTool: (name) => void record("notCalledTool", trajectoryChecks(all).notCalledTool(name)),
    get reply() {
      return trajectoryChecks(last).reply;
    },
    get events() {
      return all;
    },
    check: (value: unknown, matcher: Matcher) => void record("check", matcher.test(value)),
    require(value: unknown, matcher: Matcher) {
      const result = matcher.test(value);
      record("require", result);
      if (!result.pass) throw new RequireFailed(result.message);
    },
    async judge(value: unknown, rubric: string) {
      const verdict = (await hostCall(requestId, "eval.judge", { value, rubric })) as { pass: boolean; reason: string };
      record("judge", { pass: verdict.pass, message: verdict.reason });
    },
  };
  try {
    await test(t);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { assertions, error: error instanceof RequireFailed ? `require failed: ${message}` : message };
  }
  return { assertions };
}
