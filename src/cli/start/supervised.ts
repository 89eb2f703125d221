// Keeps a part of the stack running: when it dies it is restarted with exponential backoff, each
// restart said in one line; one that dies more often than the policy allows stays down and the
// supervisor is told (docs/configuration.md, "Supervision"). The backoff resets once a run has
// stayed up long enough.
import {
  describeExit,
  isStoppingAllChildren,
  startChild,
  type ChildSpec,
  type ExitInfo,
  type Log,
  type RunningChild,
} from "./child";
import { sleep } from "./wait";

export type SupervisedChild = {
  current: () => RunningChild;
  /** Resolves once the first run is ready; rejects if it exits before that (nothing restarts). */
  ready: Promise<void>;
  stop: () => Promise<void>;
};

export type RestartPolicy = {
  /** Restarts allowed within `windowMs`; one death more gives up. */
  limit: number;
  windowMs: number;
  initialMs: number;
  maxMs: number;
  stableAfterMs: number;
};

export const defaultRestartPolicy: RestartPolicy = {
  limit: 5,
  windowMs: 60_000,
  initialMs: 250,
  maxMs: 10_000,
  stableAfterMs: 30_000,
};

export type SuperviseOptions = {
  policy?: Partial<RestartPolicy>;
  /** Resolves once a run serves; a run counts as started when it is spawned if absent. */
  waitUntilReady?: (child: RunningChild, phase: { isRestart: boolean }) => Promise<void>;
  /** Runs before each restart, once the dead run's process group is gone. */
  beforeRestart?: () => void;
  onStart?: (child: RunningChild) => void;
  /** The part died more often than the policy allows and stays down (the log said why). */
  onGiveUp?: () => void;
  /** Where the part's whole output is, for the give-up message. */
  logFile?: string;
  stopTimeoutMs?: number;
};

/** What the supervisor decides for every part: the limits, and what a crash loop does. */
export type Supervision = Pick<SuperviseOptions, "policy" | "onGiveUp">;

export function superviseChild(spec: ChildSpec, log: Log, options: SuperviseOptions = {}): SupervisedChild {
  const policy = { ...defaultRestartPolicy, ...options.policy };
  const waitUntilReady = options.waitUntilReady ?? (async () => undefined);
  let isStopped = false;
  // A shutdown during start-up stops the children directly (stopAllChildren), not through stop().
  const isStopping = () => isStopped || isStoppingAllChildren();
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  let running = start();
  const first = running;
  const ready = Promise.race([
    waitUntilReady(first, { isRestart: false }),
    first.exited.then((exit) => {
      throw new Error([`${spec.name} ${describeExit(exit)} during start-up`, ...lastOutput(first)].join("\n"));
    }),
  ]);

  function start(): RunningChild {
    const child = startChild(spec, log);
    options.onStart?.(child);
    return child;
  }

  /** Undefined once the run is ready; its exit if it died first. */
  async function untilReadyOrExit(child: RunningChild): Promise<ExitInfo | undefined> {
    const isReady = waitUntilReady(child, { isRestart: true }).then(
      () => true,
      (error: Error) => {
        log(`${spec.name} (pid ${child.pid}) did not become ready: ${error.message}`);
        return false;
      },
    );
    const outcome = await Promise.race([isReady, child.exited]);
    return outcome === true ? undefined : await child.exited;
  }

  async function watch(): Promise<void> {
    const deaths: number[] = [];
    let delay = policy.initialMs;
    while (!isStopping()) {
      const exit = await running.exited;
      if (isStopping()) return;
      await running.reap();
      const now = Date.now();
      const upMs = now - running.startedAt;
      if (upMs > policy.stableAfterMs) delay = policy.initialMs;
      while (deaths.length > 0 && now - deaths[0]! > policy.windowMs) deaths.shift();
      deaths.push(now);
      const what = `${spec.name} (pid ${running.pid}) ${describeExit(exit)} after ${formatDuration(upMs)}`;
      if (deaths.length > policy.limit) {
        for (const line of giveUpMessage(what, deaths.length, running)) log(line);
        options.onGiveUp?.();
        return;
      }
      const window = formatDuration(policy.windowMs);
      log(`${what}; restart ${deaths.length} of ${policy.limit} within ${window}, in ${formatDuration(delay)}`);
      await Promise.race([sleep(delay), stopped]);
      delay = Math.min(delay * 2, policy.maxMs);
      if (isStopping()) return;
      options.beforeRestart?.();
      running = start();
      const restartedAt = Date.now();
      if (!(await untilReadyOrExit(running))) {
        log(`${spec.name} restarted (pid ${running.pid}), ready after ${formatDuration(Date.now() - restartedAt)}`);
      }
    }
  }

  function lastOutput(child: RunningChild): string[] {
    const output = child.recentOutput();
    const where = options.logFile ? ` (all of it in ${options.logFile})` : "";
    if (output.length === 0) return [`${spec.name} printed nothing${where}`];
    return [`last output of ${spec.name}${where}:`, ...output.map((line) => `  ${line}`)];
  }

  function giveUpMessage(what: string, count: number, child: RunningChild): string[] {
    const window = formatDuration(policy.windowMs);
    return [
      `${what}: it died ${count} times within ${window}, more than the ${policy.limit} restarts allowed ` +
        "(AGENTFOLD_RESTART_LIMIT); stopping Agentfold",
      ...lastOutput(child),
    ];
  }

  // Supervision starts once the first run is ready: a part that cannot start at all fails the
  // start-up with its own error instead of a crash loop.
  const watching = ready.then(watch, () => undefined);

  return {
    current: () => running,
    ready,
    async stop() {
      isStopped = true;
      markStopped();
      await running.stop(options.stopTimeoutMs);
      await watching;
    },
  };
}

function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds >= 120) return `${Math.round(seconds / 60)} min`;
  return Number.isInteger(seconds) || seconds >= 10 ? `${Math.round(seconds)} s` : `${seconds.toFixed(1)} s`;
}
