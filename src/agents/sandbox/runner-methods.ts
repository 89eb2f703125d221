// The runner's methods (protocol.ts, SandboxMethods): which function answers each of the
// platform's calls, given the bundle's modules, the call's params and its request id (the
// platform request host calls are made for). This file runs ONLY in the sandbox.
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { artifactsApi } from "./artifacts-api";
import { defaultExport, type ModuleLoaders } from "./bundle-modules";
import { describeModule } from "./describe-modules";
import type { SandboxMethod, SandboxRequest } from "./protocol";
import { runEvalCase, type EvalCaseRequest } from "./run-eval";
import { runChannelEvent, runHook, runPackHandler } from "./run-event-handlers";
import { runResultContract } from "./run-result";
import { runSchedule } from "./run-schedule";
import { needsApproval, runTool } from "./run-tool-call";
import { runRoute } from "./stream-route";

/** The model's tag_artifact, for the session and turn it runs in. */
function tagForModel(
  modules: ModuleLoaders,
  params: { input: unknown; sessionId: string; turnId?: string },
  requestId: number,
) {
  const input = (params.input ?? {}) as { kind?: string; key: string; title?: string; data?: unknown };
  return artifactsApi(requestId, modules, { sessionId: params.sessionId, turnId: params.turnId }).tag(input);
}

async function runResult(modules: ModuleLoaders, params: { file: string; text: string; session: unknown }) {
  const result = await defaultExport(modules, params.file);
  if (descriptorKindOf(result) !== "result")
    return { outcome: "failed" as const, message: `${params.file} does not export defineResult(...)` };
  return runResultContract(result as never, params);
}

type Method = (modules: ModuleLoaders, params: never, requestId: number) => unknown;

const methods: Record<SandboxMethod, Method> = {
  describe: (modules) => Promise.all(Object.keys(modules).map((file) => describeModule(modules, file))),
  runTool,
  needsApproval,
  runHook,
  runResult,
  runSchedule,
  runRoute,
  runChannelEvent,
  runPackHandler,
  runEval: (modules, params: EvalCaseRequest, requestId) =>
    runEvalCase(() => defaultExport(modules, params.file), params, requestId),
  tagArtifact: tagForModel,
};

/** The result of the platform's call `request`, or undefined when the runner has no such method
 * (which is also how a method that answered undefined reads). */
export async function answerMethod(modules: ModuleLoaders, request: SandboxRequest): Promise<unknown> {
  const params = request.params as never;
  if (!Object.hasOwn(methods, request.method)) return undefined;
  return await methods[request.method](modules, params, request.id);
}
