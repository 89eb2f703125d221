// `agentfold …` as a user runs it: the CLI's own entry in a child process, with `stdin` piped in,
// for tests that check what a command prints and how it exits.
import { spawn } from "node:child_process";
import path from "node:path";
import { projectRoot } from "@/cli/start/project";

export type CliResult = { code: number; stdout: string; stderr: string };

export const cliBin = path.join(projectRoot, "bin", "agentfold.mjs");

export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env: options.env ?? process.env, cwd: options.cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/**
 * `script`'s arguments to run `node <args>` in a pseudo-terminal, so Enter and Ctrl-C go in as a
 * person types them. `exec`: `script` runs the command through $SHELL -c, and dash (Debian's sh,
 * what CI has) forks instead of replacing itself, so a Ctrl-C would kill the shell, and `script`
 * would exit 130 whatever the command did.
 */
export function terminalArgs(args: string[], { flush = true } = {}): string[] {
  const quoted = [process.execPath, ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
  return [flush ? "-qfec" : "-qec", `exec ${quoted}`, "/dev/null"];
}
