// One `agentfold` command as data: its words, arguments, flags and help, and what runs it. The
// dispatcher (main.ts), `agentfold help`, `help <command> --json` and docs/cli.md's test all read
// the same list (commands/index.ts), so a flag exists in exactly one place.
import { parseArgs } from "node:util";
import { UsageError } from "./usage-error";

export type FlagSpec = {
  type: "string" | "boolean";
  description: string;
  /** Shown after the flag in usage lines: `--dir <dir>`. */
  value?: string;
  short?: string;
  multiple?: boolean;
  required?: boolean;
};

export type ArgSpec = {
  name: string;
  description: string;
  required?: boolean;
  /** The last argument only: takes every remaining word. */
  variadic?: boolean;
};

export type CommandGroup = "develop" | "sessions" | "remote" | "bootstrap" | "integrations";

type FlagValue<F extends FlagSpec> = F["type"] extends "boolean"
  ? boolean
  : F["multiple"] extends true
    ? string[]
    : F["required"] extends true
      ? string
      : string | undefined;

export type FlagValues<F extends Record<string, FlagSpec>> = { [K in keyof F]: FlagValue<F[K]> };

export type CommandInput<F extends Record<string, FlagSpec>> = { flags: FlagValues<F>; args: string[] };

export type Command = {
  /** The words that name it: "validate", "secret set". */
  name: string;
  group: CommandGroup;
  summary: string;
  /** More lines for `help <command>`. */
  details?: string;
  args: ArgSpec[];
  flags: Record<string, FlagSpec>;
  examples: string[];
  /** An exit code; -1 for a command that keeps running (start, dev) and exits on its own. */
  run: (input: { flags: Record<string, unknown>; args: string[] }) => Promise<number>;
};

export function defineCommand<const F extends Record<string, FlagSpec>>(spec: {
  name: string;
  group: CommandGroup;
  summary: string;
  details?: string;
  args?: ArgSpec[];
  flags: F;
  examples: string[];
  run: (input: CommandInput<F>) => Promise<number>;
}): Command {
  return {
    ...spec,
    args: spec.args ?? [],
    run: (input) => spec.run(input as CommandInput<F>),
  };
}

/** `agentfold secret set <agent> <name> [--team <slug>]` */
export function usageLine(command: Command): string {
  const args = command.args.map((a) => {
    const shown = a.variadic ? `${a.name}…` : a.name;
    return a.required ? `<${shown}>` : `[${shown}]`;
  });
  const flags = Object.entries(command.flags).map(([name, flag]) => {
    const shown = flag.type === "boolean" ? `--${name}` : `--${name} ${flag.value ?? `<${name}>`}`;
    const repeated = flag.multiple ? `${shown}…` : shown;
    return flag.required ? repeated : `[${repeated}]`;
  });
  return ["agentfold", command.name, ...args, ...flags].join(" ");
}

/** The command a command line names: the longest run of its leading words that is a command. */
export function findCommand(
  commands: readonly Command[],
  argv: readonly string[],
): { command: Command; rest: string[] } | undefined {
  const words: string[] = [];
  for (const token of argv) {
    if (token.startsWith("-")) break;
    words.push(token);
  }
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const name = words.slice(0, n).join(" ");
    const command = commands.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(n) };
  }
  return undefined;
}

/** What `help <command> --json` prints: enough for a script or a coding agent to call it. */
export function describeCommand(command: Command) {
  return {
    name: command.name,
    group: command.group,
    summary: command.summary,
    ...(command.details ? { details: command.details } : {}),
    usage: usageLine(command),
    arguments: command.args.map((a) => ({
      name: a.name,
      required: a.required ?? false,
      variadic: a.variadic ?? false,
      description: a.description,
    })),
    flags: Object.entries(command.flags).map(([name, flag]) => ({
      name: `--${name}`,
      ...(flag.short ? { short: `-${flag.short}` } : {}),
      type: flag.type,
      ...(flag.value ? { value: flag.value } : {}),
      required: flag.required ?? false,
      multiple: flag.multiple ?? false,
      description: flag.description,
    })),
    examples: command.examples,
  };
}

/** The flags and arguments of one command line, checked against the command's spec; what it
 * cannot act on is a UsageError (exit 2 with the usage). */
export function parseCommandLine(command: Command, rest: string[]): { flags: Record<string, unknown>; args: string[] } {
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([name, flag]) => [
      name,
      { type: flag.type, ...(flag.multiple ? { multiple: true } : {}), ...(flag.short ? { short: flag.short } : {}) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (${usageLine(command)})`);
  }
  const values: Record<string, unknown> = { ...parsed.values };
  for (const [name, flag] of Object.entries(command.flags)) {
    if (flag.required && (values[name] === undefined || values[name] === ""))
      throw new UsageError(`${command.name} needs --${name} ${flag.value ?? `<${name}>`}`);
    if (flag.type === "boolean" && values[name] === undefined) values[name] = false;
    if (flag.multiple && values[name] === undefined) values[name] = [];
  }
  const positionals = parsed.positionals;
  const required = command.args.filter((a) => a.required);
  if (positionals.length < required.length) {
    const missing = required.slice(positionals.length).map((a) => `<${a.name}>`);
    throw new UsageError(`${command.name} needs ${missing.join(" ")}: ${usageLine(command)}`);
  }
  if (positionals.length > command.args.length && !command.args.at(-1)?.variadic)
    throw new UsageError(`${command.name} takes no '${positionals[command.args.length]}': ${usageLine(command)}`);
  return { flags: values, args: positionals };
}
