// What the worker runs beside its Restate services, started once they have their deps: hook
// deliveries and, with an engine to start turns in, Slack's Socket Mode, the eval executor and
// eager turns.
import { runEagerly } from "@/server/durable/session-object";
import { startEvalExecutor } from "@/server/evals/eval-executor";
import { packDeliveries } from "@/server/agent-channels/packs";
import { createHookDispatcher } from "@/server/hooks/hook-dispatcher";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { startSlackSockets } from "@/server/slack/socket-mode";
import { env } from "@/env";
import { createEagerTurns } from "./eager-turns";
import type { WorkerBackground, WorkerConfig, WorkerCore } from "./worker-parts";

/** Also gives the deps their eager turns (deps.eager) when there is an engine. */
export async function startBackground(config: WorkerConfig, core: WorkerCore): Promise<WorkerBackground> {
  const { deps, databaseUrl, agentKey, log } = core;
  // Events reach hooks from here, never from the turn that appends them.
  const hooks = await startHooks(config, core);
  const { slackApiUrl } = core.packs.apiUrls;
  // Slack channels with an app token take their events over Socket Mode from here.
  const slackSockets = config.runtime
    ? await startSlackSockets({
        db: config.db,
        databaseUrl,
        runtime: config.runtime,
        // Read fresh: a refresh follows a secret's change.
        secrets: packSecretReader({ db: config.db, key: agentKey, maxAgeMs: 0 }),
        log: (line) => log.warn(line),
        ...(slackApiUrl ? { slackApiUrl } : {}),
      })
    : undefined;
  // Eval runs' cases: their turns go through the engine too.
  const evals = config.runtime
    ? await startEvalExecutor({
        db: config.db,
        databaseUrl,
        dataDir: config.dataDir,
        sandboxes: core.sandboxes,
        leaseMs: config.evalLeaseMs ?? env().AGENTFOLD_EVAL_LEASE_SECONDS * 1000,
        log: (line) => log.warn(line),
      })
    : undefined;
  // Eager runs need the engine to hand turns over to.
  if (config.runtime) {
    const eager = await createEagerTurns({
      db: config.db,
      databaseUrl,
      runtime: config.runtime,
      run: (turn, hints) => runEagerly(deps, hints, turn),
    });
    deps.eager = eager;
  }
  return { hooks, slackSockets, evals };
}

/** Deliveries of events to agents' hooks, the prebuilt packs' (Slack, GitHub) among them. */
function startHooks(config: WorkerConfig, { databaseUrl, sandboxes, logs, packs }: WorkerCore) {
  return createHookDispatcher({
    db: config.db,
    databaseUrl,
    dataDir: config.dataDir,
    sandboxes,
    logs,
    timeoutMs: config.hookTimeoutMs ?? 30_000,
    packs: packDeliveries({
      db: config.db,
      dataDir: config.dataDir,
      secrets: packs.secrets,
      logs,
      ...packs.apiUrls,
    }),
  });
}
