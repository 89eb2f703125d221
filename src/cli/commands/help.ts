// agentfold help [<command>] [--json]: the commands by group, one command's usage, or either as
// JSON (arguments and flags) for scripts and coding agents.
import { type Command, type CommandGroup, describeCommand, usageLine } from "@/cli/command";
import { jsonFlag } from "@/cli/flags";
import { UsageError } from "@/cli/usage-error";
import { defineCommand } from "@/cli/command";

const groups: Record<CommandGroup, string> = {
  develop: "Develop an agent folder",
  sessions: "Talk to agents and test them",
  remote: "Instances",
  integrations: "Secrets and integrations",
  bootstrap: "Headless bootstrap (against this installation's database; see docs/api.md)",
};

/** The command's words, its arguments and required flags: the rest is in `help <command>`. */
function shortUsage(command: Command): string {
  const words = usageLine({ ...command, flags: {} }).replace(/^agentfold /, "");
  const flags = Object.entries(command.flags);
  const required = flags.filter(([, f]) => f.required).map(([name, f]) => `--${name} ${f.value ?? `<${name}>`}`);
  return [words, ...required, ...(flags.length > required.length ? ["[options]"] : [])].join(" ");
}

/** Top-level help: every command under its group, its usage line and summary. */
export function overview(commands: readonly Command[]): string {
  const sections = (Object.keys(groups) as CommandGroup[]).map((group) => {
    const lines = commands.filter((c) => c.group === group).map((c) => `  ${shortUsage(c)}\n      ${c.summary}`);
    return lines.length ? `${groups[group]}:\n${lines.join("\n")}` : "";
  });
  return [
    "Usage: agentfold <command> [options]",
    ...sections.filter(Boolean),
    "agentfold help <command> [--json] shows one command; docs/cli.md has an example of each.",
  ].join("\n\n");
}

export function commandHelp(command: Command): string {
  const flags = Object.entries(command.flags).map(([name, flag]) => {
    const shown = `--${name}${flag.type === "string" ? ` ${flag.value ?? `<${name}>`}` : ""}`;
    return `  ${shown.padEnd(28)} ${flag.description}${flag.required ? " (required)" : ""}`;
  });
  const args = command.args.map((a) => `  ${a.name.padEnd(28)} ${a.description}`);
  return [
    `Usage: ${usageLine(command)}`,
    command.summary,
    ...(command.details ? [command.details] : []),
    ...(args.length ? [`Arguments:\n${args.join("\n")}`] : []),
    ...(flags.length ? [`Flags:\n${flags.join("\n")}`] : []),
    `Examples:\n${command.examples.map((e) => `  ${e}`).join("\n")}`,
  ].join("\n\n");
}

export function helpCommand(all: () => readonly Command[]): Command {
  return defineCommand({
    name: "help",
    group: "develop",
    summary: "Show every command, or one command's usage",
    args: [{ name: "command", variadic: true, description: "The command's words, e.g. secret set" }],
    flags: { json: jsonFlag },
    examples: ["agentfold help", "agentfold help secret set --json"],
    run: async ({ flags, args }) => {
      const commands = all();
      const name = args.join(" ");
      const chosen = name ? commands.filter((c) => c.name === name || c.name.startsWith(`${name} `)) : commands;
      if (chosen.length === 0) throw new UsageError(`no command '${name}'`);
      if (flags.json) {
        const described = chosen.map(describeCommand);
        const single = chosen.length === 1 && chosen[0]!.name === name;
        process.stdout.write(`${JSON.stringify(single ? described[0] : { commands: described }, null, 2)}\n`);
      } else if (chosen.length === 1 && chosen[0]!.name === name) console.log(commandHelp(chosen[0]!));
      else console.log(name ? chosen.map(commandHelp).join("\n\n---\n\n") : overview(commands));
      return 0;
    },
  });
}
