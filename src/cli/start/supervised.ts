// Keeps a child running: when it dies unexpectedly it is restarted with exponential backoff, and
// the supervisor says so. The backoff resets once a run has stayed up long enough.
import { describeExit, startChild, type ChildSpec, type Log, type RunningChild } from "./child";
import { sleep } from "./wait";

export type SupervisedChild = {
  current: () => RunningChild;
  stop: () => Promise<void>;
};

export type BackoffOptions = { initialMs?: number; maxMs?: number; stableAfterMs?: number };

export function superviseChild(
  spec: ChildSpec,
  log: Log,
  { initialMs = 250, maxMs = 10_000, stableAfterMs = 30_000 }: BackoffOptions = {},
  onStart?: (child: RunningChild) => void,
): SupervisedChild {
  let isStopping = false;
  let running = startChild(spec, log);
  onStart?.(running);
  let delay = initialMs;

  async function watch(): Promise<void> {
    while (!isStopping) {
      const startedAt = Date.now();
      const exit = await running.exited;
      if (isStopping) return;
      if (Date.now() - startedAt > stableAfterMs) delay = initialMs;
      log(`${spec.name} ${describeExit(exit)}; restarting in ${formatDelay(delay)}`);
      await sleep(delay);
      delay = Math.min(delay * 2, maxMs);
      if (isStopping) return;
      running = startChild(spec, log);
      onStart?.(running);
      log(`${spec.name} restarted (pid ${running.pid})`);
    }
  }
  const watching = watch();

  return {
    current: () => running,
    async stop() {
      isStopping = true;
      await running.stop();
      await watching;
    },
  };
}

function formatDelay(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
