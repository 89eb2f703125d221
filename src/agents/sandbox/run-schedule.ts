// A schedule's `run` in the sandbox (docs/schedules.md, "What fires"): its ctx hands a message to
// a channel (receive) and calls a tool (callTool) as host calls, and the run ends once its
// waitUntil work is done. A throw is the run's error result. This file runs ONLY in the sandbox.
import { descriptorKindOf } from "@/agents/sdk/descriptor";
import { artifactsApi } from "./artifacts-api";
import { defaultExport, type ModuleLoaders } from "./bundle-modules";
import { backgroundWork, hostFor } from "./call-ctx";
import { logCallError } from "./console-capture";
import { errorText } from "./error-text";
import { hostCall } from "./host-calls";

export async function runSchedule(
  modules: ModuleLoaders,
  params: { file: string; appAuth: unknown },
  requestId: number,
) {
  try {
    const schedule = (await defaultExport(modules, params.file)) as { run?: (ctx: unknown) => unknown };
    if (descriptorKindOf(schedule) !== "schedule" || typeof schedule.run !== "function")
      return { ok: false as const, error: `${params.file} has no run()` };
    const background = backgroundWork();
    await schedule.run(
      Object.freeze({
        appAuth: params.appAuth,
        host: hostFor(modules, requestId),
        artifacts: artifactsApi(requestId, modules, {}),
        receive: async (channel: unknown, input: unknown) => {
          const name =
            typeof channel === "string"
              ? channel
              : ((channel as { id?: string; name?: string })?.id ?? (channel as { name?: string })?.name);
          await hostCall(requestId, "receive", { channel: name, input });
        },
        callTool: (name: string, input?: unknown) => hostCall(requestId, "callTool", { name, input: input ?? {} }),
        waitUntil: background.waitUntil,
      }),
    );
    await background.settled();
    return { ok: true as const };
  } catch (error) {
    logCallError(error, params.file);
    return { ok: false as const, error: errorText(error) };
  }
}
