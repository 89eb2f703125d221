// The program inside a sandbox process (bundled together with the agent's modules). It answers
// the platform's RPC calls over IPC; a thrown error in agent code becomes an error result and
// never takes the process down. This file runs ONLY in the sandbox.
//
// Here: the process's wiring (egress, console, otel, secrets, the IPC loop). What each method
// does is in runner-methods.ts and the files it names.
import type { ModuleLoaders } from "./bundle-modules";
import { captureConsole, inCall, logCallError } from "./console-capture";
import { registerDecide } from "./decide-api";
import { routeEgress } from "./egress-client";
import { errorText } from "./error-text";
import { hostCall, settleHostReply } from "./host-calls";
import { flushOtel, otelScoped, registerOtelApi } from "./otel-api";
import type { RouteRequest, SandboxRequest, SandboxResponse } from "./protocol";
import { answerMethod } from "./runner-methods";

/** The platform's settings for this process, from its command line (--agentfold-<name>=…). */
function launchSetting(name: string): string | undefined {
  const prefix = `--agentfold-${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

/** The agent's secrets as process.env: names sent before and not now are removed. */
function applySecrets(secrets: Record<string, string>, applied: Set<string>): void {
  for (const name of applied) if (!(name in secrets)) delete process.env[name];
  applied.clear();
  for (const [name, value] of Object.entries(secrets)) (process.env[name] = value), applied.add(name);
}

export async function startSandbox(modules: ModuleLoaders): Promise<void> {
  // What agent code recorded for OpenTelemetry goes out just before the call's answer.
  const send = (response: SandboxResponse) => (flushOtel(response.id), process.send?.(response));
  registerOtelApi((requestId, batch) => hostCall(requestId, "otel.record", batch));
  registerDecide();
  const socketPath = launchSetting("egress");
  const undiciPath = launchSetting("undici");
  if (socketPath && undiciPath) await routeEgress({ socketPath, undiciPath });
  const secretNames = new Set<string>();
  const serve = async (request: SandboxRequest) => {
    if (settleHostReply(request)) return;
    if (request.env) applySecrets(request.env, secretNames);
    try {
      const result = await answerMethod(modules, request);
      if (result === undefined) send({ id: request.id, ok: false, error: `unknown method ${request.method}` });
      else send({ id: request.id, ok: true, result });
    } catch (error) {
      logCallError(error, request.method === "runRoute" ? (request.params as RouteRequest).file : request.method);
      send({ id: request.id, ok: false, error: errorText(error) });
    }
  };
  // Each call runs with its request id in the active context (otel-api.ts).
  // What agent code prints while serving a call is that call's log (console-capture.ts).
  captureConsole();
  process.on(
    "message",
    otelScoped((request: SandboxRequest) => inCall(request.id, () => serve(request))),
  );
  // Background work in agent code that rejects must not end the process: report and go on.
  process.on("unhandledRejection", (reason) => console.error("unhandled rejection in agent code:", errorText(reason)));
  process.on("uncaughtException", (error) => console.error("uncaught exception in agent code:", errorText(error)));
  // The platform side went away: nothing left to serve.
  process.on("disconnect", () => process.exit(0));
  send({ id: 0, ok: true, result: "ready" });
}
