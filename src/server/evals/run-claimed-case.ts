// Runs one claimed case (claim-eval-cases.ts) in its version's sandbox
// (src/agents/sandbox/run-eval.ts) while renewing its lease, records what it proved, and ends the
// run if that was its last case. A case that cannot run is recorded as an error, not thrown.
import path from "node:path";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { EvalCaseOutcome } from "@/agents/sandbox/run-eval";
import { versionSandboxSpec } from "@/server/agents/storage";
import type { HostContext } from "@/server/turns/host-context";
import { recordResult, renewLease } from "./eval-case-lease";
import { evalCases } from "./eval-cases";
import type { Claimed, EvalExecutorContext } from "./eval-executor-types";
import { finishEvalRun } from "./finish-eval-run";

export async function runClaimedCase(executor: EvalExecutorContext, claimed: Claimed): Promise<void> {
  const renew = renewLease(executor, claimed);
  let outcome: EvalCaseOutcome;
  try {
    outcome = await executeCase(executor, claimed);
  } catch (error) {
    outcome = { assertions: [], error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearInterval(renew);
  }
  await recordResult(executor, claimed, outcome);
  await finishEvalRun(executor, claimed.runId);
}

async function executeCase(
  executor: Pick<EvalExecutorContext, "db" | "dataDir" | "sandboxes">,
  claimed: Claimed,
): Promise<EvalCaseOutcome> {
  const { db, dataDir, sandboxes } = executor;
  const version = await db.agentVersion.findUnique({
    where: { id: claimed.versionId },
    select: { bundlePath: true, manifest: true },
  });
  if (!version?.bundlePath) return { assertions: [], error: "the run's version has no bundle" };
  const ref = evalCases(version.manifest as AgentManifest).find((c) => c.id === claimed.caseId);
  if (!ref) return { assertions: [], error: `the version has no eval case ${claimed.caseId}` };
  const bundlePath = path.join(dataDir, version.bundlePath);
  const sandbox = sandboxes.forVersion(
    versionSandboxSpec(dataDir, { agentId: claimed.agentId, versionId: claimed.versionId, bundlePath }),
  );
  const hostContext = hostContextOf(claimed, bundlePath);
  return sandbox.call(
    "runEval",
    {
      file: ref.file,
      ...(ref.index !== undefined ? { index: ref.index } : {}),
      ...(ref.caseId ? { caseId: ref.caseId } : {}),
    },
    { timeoutMs: claimed.timeoutMs, hostContext },
  );
}

/** The case's `t.send` and `t.judge` (eval-host-calls.ts) act for whoever started the run, and
 * its turns wait no longer than the case may take. */
function hostContextOf(claimed: Claimed, bundlePath: string): HostContext {
  return {
    agentId: claimed.agentId,
    versionId: claimed.versionId,
    bundlePath,
    principal: { kind: claimed.ownerKind as "user", id: claimed.ownerId },
    evalCase: {
      runId: claimed.runId,
      caseId: claimed.caseId,
      iteration: claimed.iteration,
      deadline: Date.now() + claimed.timeoutMs,
    },
  };
}
