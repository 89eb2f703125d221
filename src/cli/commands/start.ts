// agentfold start: the whole platform on this machine, supervised until Ctrl-C or SIGTERM.
import { inheritedEnvironment, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { startSupervisor } from "@/cli/start/supervisor";

function log(line: string): void {
  process.stdout.write(`agentfold: ${line}\n`);
}

async function start(options: { isCluster: boolean }): Promise<number> {
  // --cluster is AGENTFOLD_CLUSTER=1, for this process and the parts it starts.
  const environment = { ...inheritedEnvironment(), ...(options.isCluster ? { AGENTFOLD_CLUSTER: "1" } : {}) };
  const config = parseEnv(environment);
  let isShuttingDown = false;
  let supervisor: Awaited<ReturnType<typeof startSupervisor>> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    log(`${signal}: shutting down`);
    // Ctrl-C during start-up: stop whatever has started so far.
    void (supervisor ? supervisor.shutdown() : import("@/cli/start/child").then((m) => m.stopAllChildren())).then(
      () => {
        log("stopped");
        process.exit(0);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  supervisor = await startSupervisor(config, log, { environment });
  return -1;
}

export const startCommandSpec = defineCommand({
  name: "start",
  group: "develop",
  summary: "Start Postgres, Restate, the worker and the web app (embedded unless configured)",
  details: "Every setting is an environment variable: docs/configuration.md.",
  flags: {
    cluster: {
      type: "boolean",
      description: "A 3-node Restate cluster, 2 workers and 2 web processes on this machine (docs/deploy.md)",
    },
  },
  examples: ["agentfold start", "DATABASE_URL=postgresql://… agentfold start", "agentfold start --cluster"],
  run: ({ flags }) => start({ isCluster: flags.cluster }),
});
