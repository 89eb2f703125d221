// agentfold start: the whole platform on this machine, supervised until Ctrl-C or SIGTERM.
import { parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { startSupervisor } from "@/cli/start/supervisor";

function log(line: string): void {
  process.stdout.write(`agentfold: ${line}\n`);
}

async function start(): Promise<number> {
  const config = parseEnv();
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
  supervisor = await startSupervisor(config, log);
  return -1;
}

export const startCommandSpec = defineCommand({
  name: "start",
  group: "develop",
  summary: "Start Postgres, Restate, the worker and the web app (embedded unless configured)",
  details: "Every setting is an environment variable: docs/configuration.md.",
  flags: {},
  examples: ["agentfold start", "DATABASE_URL=postgresql://… agentfold start"],
  run: start,
});
