// agentfold manifest [--dir <folder>]: the folder's deployment metadata as JSON on stdout — the
// manifest a deploy stores (tools with their schemas, channels, schedules, evals …) — and its
// diagnostics on stderr; exit 1 when the folder has errors. agentfold version: the package's.
import fs from "node:fs";
import path from "node:path";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { projectRoot } from "@/cli/start/project";
import { loadForCli } from "./validate";
import { defineCommand } from "@/cli/command";
import { dirFlag, folderArg } from "@/cli/flags";

export async function manifestCommand(options: { dir: string }): Promise<number> {
  const loaded = await loadForCli(options.dir);
  for (const diagnostic of loaded.diagnostics) console.error(formatDiagnostic(diagnostic));
  if (!loaded.ok || !loaded.manifest) return 1;
  process.stdout.write(`${JSON.stringify(loaded.manifest, null, 2)}\n`);
  return 0;
}

export function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

export function versionCommand(options: { json: boolean }): number {
  const version = packageVersion();
  console.log(options.json ? JSON.stringify({ version, node: process.versions.node }) : `agentfold ${version}`);
  return 0;
}

export const manifestCommandSpec = defineCommand({
  name: "manifest",
  group: "develop",
  summary: "Print the folder's deployment metadata (its manifest) as JSON; exit 1 on errors (listed on stderr)",
  args: [folderArg],
  flags: { dir: dirFlag },
  examples: ["agentfold manifest --dir examples/hello | jq '.tools[].name'"],
  run: ({ flags, args }) => manifestCommand({ dir: flags.dir ?? args[0] ?? "." }),
});

export const versionCommandSpec = defineCommand({
  name: "version",
  group: "develop",
  summary: "Print the package version",
  flags: { json: { type: "boolean", description: "As JSON, with the Node.js version" } },
  examples: ["agentfold version --json"],
  run: async ({ flags }) => versionCommand({ json: flags.json }),
});
