// The `agentfold` command.
import { EnvError, parseEnv } from "@/env";
import { PortInUseError } from "./start/ports";
import { startSupervisor } from "./start/supervisor";

const usage = `Usage: agentfold <command>

Commands:
  start    Start Postgres, Restate, the worker and the web app (embedded unless configured)
  help     Show this message

Configuration comes from environment variables; see docs/configuration.md.`;

function log(line: string): void {
  process.stdout.write(`agentfold: ${line}\n`);
}

async function start(): Promise<void> {
  const config = parseEnv();
  let isShuttingDown = false;
  let supervisor: Awaited<ReturnType<typeof startSupervisor>> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    log(`${signal}: shutting down`);
    // Ctrl-C during start-up: stop what has started so far; startSupervisor's own cleanup runs
    // when its pending step fails, so stopping all children here is enough.
    void (supervisor ? supervisor.shutdown() : import("./start/child").then((m) => m.stopAllChildren())).then(
      () => {
        log("stopped");
        process.exit(0);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  supervisor = await startSupervisor(config, log);
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  switch (command) {
    case "start":
      return start();
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(usage);
      return;
    default:
      console.error(`Unknown command: ${command}\n\n${usage}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof PortInUseError) {
    console.error(`agentfold: ${error.message}`);
  } else {
    console.error("agentfold: start failed:", error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
