// agentfold validate [--dir <folder>] [--json]: every problem at once; exit 1 when any is an error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import type { LoadedAgent } from "@/agents/loader/load-agent";
import { parseEnv } from "@/env";
import { loadPackedFolder } from "@/server/agents/load-packed-folder";
import { modelRouting } from "@/server/models";
import { defineCommand } from "@/cli/command";
import { dirFlag, folderArg, jsonFlag } from "@/cli/flags";

export async function loadForCli(dir: string): Promise<LoadedAgent> {
  const folderDir = path.resolve(dir);
  if (!fs.existsSync(folderDir)) throw new Error(`no such folder: ${folderDir}`);
  // What deploy would upload: its packages bundled from node_modules as deploy bundles them, or,
  // without node_modules, its lockfile's dependencies installed as an upload's (cached).
  const cacheDir = path.join(os.homedir(), ".cache", "agentfold", "dependencies");
  fs.mkdirSync(cacheDir, { recursive: true });
  return loadPackedFolder({ dir: folderDir, cacheDir, models: modelRouting(parseEnv()) });
}

export async function validateCommand(options: { dir: string; isJson?: boolean }): Promise<number> {
  const loaded = await loadForCli(options.dir);
  const errors = loaded.diagnostics.filter((d) => d.level === "error").length;
  const warnings = loaded.diagnostics.length - errors;
  const name = loaded.manifest?.name ?? path.basename(path.resolve(options.dir));
  const secrets = loaded.manifest?.secretNames ?? [];
  if (options.isJson) {
    const answer = { ok: errors === 0, name, errors, warnings, diagnostics: loaded.diagnostics, secretNames: secrets };
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return errors > 0 ? 1 : 0;
  }
  for (const diagnostic of loaded.diagnostics) console.log(formatDiagnostic(diagnostic));
  if (secrets.length > 0)
    console.log(
      `secrets expected: ${secrets.join(", ")} (set them with agentfold secret set, the dashboard or the API)`,
    );
  console.log(`${name}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`);
  return errors > 0 ? 1 : 0;
}

export const validateCommandSpec = defineCommand({
  name: "validate",
  group: "develop",
  summary: "Check an agent folder; every problem is listed; exit 1 on errors",
  args: [folderArg],
  flags: { dir: dirFlag, json: jsonFlag },
  examples: ["agentfold validate --dir examples/hello", "agentfold validate --dir examples/hello --json"],
  run: ({ flags, args }) => validateCommand({ dir: flags.dir ?? args[0] ?? ".", isJson: flags.json }),
});
