// The runner's `runRoute`: a channel route answered by run-route.ts, sent to the platform as it
// comes, in partial messages (the head, the body's pieces, their end); the call's own answer, the
// head again, goes once the waitUntil work the handler left is done. A throw is the call's error,
// logged under the channel's file (runner.ts). This file runs ONLY in the sandbox.
import { artifactsApi } from "./artifacts-api";
import { defaultExport, type ModuleLoaders } from "./bundle-modules";
import { backgroundWork, hostFor } from "./call-ctx";
import { sessionServices } from "./host-calls";
import type { RoutePart, RouteRequest, SandboxPartial } from "./protocol";
import { answerRoute } from "./run-route";

export async function runRoute(modules: ModuleLoaders, params: RouteRequest, requestId: number) {
  const channel = (await defaultExport(modules, params.file)) as Parameters<typeof answerRoute>[0];
  const background = backgroundWork();
  const { send, getSession } = sessionServices(requestId);
  const answer = await answerRoute(channel, params, {
    send: (message: string, options?: object) => send(params.channelId, message, options),
    getSession: (id: string) => getSession(params.channelId, id),
    waitUntil: background.waitUntil,
    host: hostFor(modules, requestId),
    artifacts: artifactsApi(requestId, modules, {}),
  });
  // The response goes out as it comes; the call ends when the work it left behind is done.
  const part = (result: RoutePart) => process.send?.({ partial: requestId, result } satisfies SandboxPartial);
  const head = { status: answer.status, headers: answer.headers };
  part({ head });
  try {
    if ("body" in answer) part({ chunk: answer.body });
    else if (answer.stream) {
      const reader = answer.stream.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read())
        part({ chunk: Buffer.from(read.value).toString("base64") });
    }
  } finally {
    part({ end: true });
  }
  await background.settled();
  return head;
}
