import * as restate from "@restatedev/restate-sdk";
import { runDirectCall } from "@/server/tools/run-direct-call";
import type { DirectCallOutcome, DirectCallRequest } from "@/server/tools/schema";
import { classifyFailure } from "@/server/turns/turn-failure";
import { defaultRetryBound } from "./retry-bound";
import type { WorkerDeps } from "./worker-deps";

/** Direct tool calls (docs/api.md, "Sessions"): one call, no turn, in the worker's sandboxes. A worker that
 * dies mid-call has Restate run it again (at least once, like any retried request). */
export function toolsService(deps: WorkerDeps) {
  return restate.service({
    name: "tools",
    handlers: {
      call: async (ctx: restate.Context, request: DirectCallRequest): Promise<DirectCallOutcome> => {
        const bound = deps.retry ?? defaultRetryBound;
        const call = async () => {
          try {
            return await runDirectCall({ db: deps.db, dataDir: deps.dataDir, sandboxes: deps.sandboxes, request });
          } catch (error) {
            // A call that fails the same way every time (a malformed request, say) is not retried.
            const failure = classifyFailure(error);
            if (!failure.isRetryable)
              throw new restate.TerminalError(`${failure.code}: ${failure.message}`, { errorCode: 400 });
            throw error;
          }
        };
        return ctx.run("call", call, {
          maxRetryAttempts: bound.attempts,
          initialRetryInterval: bound.initialIntervalMs,
          maxRetryInterval: bound.maxIntervalMs,
        });
      },
    },
  });
}
