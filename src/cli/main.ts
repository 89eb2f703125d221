// The `agentfold` command: finds the command its words name (commands/index.ts), checks its
// flags and arguments, and runs it. Exit codes: 0 done, 1 failed, 2 a command line it cannot act
// on (with the usage), 130 interrupted.
import { EnvError } from "@/env";
import { AppError } from "@/server/errors";
import { findCommand, parseCommandLine } from "./command";
import { commands } from "./commands";
import { commandHelp, overview } from "./commands/help";
import { PortInUseError } from "./start/ports";
import { UsageError } from "./usage-error";

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") {
    console.log(overview(commands));
    return 0;
  }
  const found = findCommand(commands, argv);
  if (!found) {
    const verbs = commands.filter((c) => c.name.startsWith(`${argv[0]} `)).map((c) => c.name);
    if (verbs.length) throw new UsageError(`${argv[0]} needs a verb: ${verbs.join(" | ")}`);
    throw new UsageError(`unknown command: ${argv[0]}`);
  }
  const { command, rest } = found;
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(commandHelp(command));
    return 0;
  }
  return command.run(parseCommandLine(command, rest));
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a long-running command (start, dev) that exits on its own.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`agentfold: ${error.message}\n\nagentfold help shows every command.`);
      process.exit(2);
    }
    const known = error instanceof EnvError || error instanceof PortInUseError || error instanceof AppError;
    console.error(`agentfold: ${known ? "" : "failed: "}${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
