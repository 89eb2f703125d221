// agentfold deploy [--dir .] [--slug <agent>] [--team <slug>] [--json] [--url <instance> --token <t>]
// Uploads an agent folder as a new version: over HTTP to the instance that resolves (--url/--token,
// AGENTFOLD_URL/AGENTFOLD_TOKEN, or the saved login; the token's team), else straight into this
// installation's database (headless bootstrap, --team needed). Its steps go to stderr; --json puts
// the result on stdout. Exit 0: a ready version; 1: invalid (its diagnostics listed) or failed.
import path from "node:path";
import fs from "node:fs";
import { type Env, parseEnv } from "@/env";
import { type Diagnostic, formatDiagnostic } from "@/agents/loader/diagnostics";
import { defineCommand } from "@/cli/command";
import { dirFlag, jsonFlag, tokenFlag, urlFlag } from "@/cli/flags";
import { type Instance, resolveInstance } from "@/cli/remote/instance";
import { type ServerStep, uploadVersion } from "@/cli/remote/upload-version";
import { createStepProgress, formatBytes, type StepProgress } from "@/cli/step-progress";
import { UsageError } from "@/cli/usage-error";
import { folderSlugOf } from "@/cli/local/local-agent";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { modelRouting } from "@/server/models";
import { packProject } from "@/agents/bundle/pack-project";
import { database, restartSchedules, teamIdOf } from "./admin";

export type DeployOptions = {
  dir: string;
  slug?: string;
  team?: string;
  isJson: boolean;
  url?: string;
  token?: string;
};

type Deployed = {
  slug: string;
  number: number;
  status: "ready" | "invalid";
  isActive: boolean;
  diagnostics: Diagnostic[];
  fileCount: number;
  sourceBytes: number;
};

const serverSteps: Record<ServerStep, string> = {
  received: "uploading",
  validating: "validating",
  bundling: "bundling",
  activating: "activating",
};

export async function deployCommand(options: DeployOptions, config: Env = parseEnv()): Promise<number> {
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`no such folder: ${dir}`);
  // An instance's agents are many: a folder name that makes no slug must not land on a shared default.
  const slug = options.slug ?? folderSlugOf(dir);
  if (!slug) throw new UsageError(`the folder's name '${path.basename(dir)}' makes no agent slug: pass --slug <slug>`);
  const instance = resolveInstance(options, config);
  if (!instance && !options.team)
    throw new UsageError(
      "deploy needs --team <slug> on this installation's database, or an instance (agentfold login)",
    );
  const progress = createStepProgress({ write: (t) => process.stderr.write(t), isTTY: Boolean(process.stderr.isTTY) });
  // With node_modules beside the package.json, its packages are bundled here first (pack-project.ts).
  const { archive, files } = await packProject(dir, { progress });
  progress.done(`${files.length} file${files.length === 1 ? "" : "s"}, ${formatBytes(archive.byteLength)}`);
  let version: Deployed;
  try {
    version = instance
      ? await deployRemote(instance, { slug, team: options.team, archive }, progress)
      : await deployLocal(config, { slug, team: options.team!, archive }, progress);
  } catch (error) {
    progress.fail();
    throw error;
  }
  const errors = version.diagnostics.filter((d) => d.level === "error").length;
  if (version.status === "ready") progress.done(version.isActive ? "active" : undefined);
  else progress.fail(`${errors} error${errors === 1 ? "" : "s"}`);
  for (const diagnostic of version.diagnostics) process.stderr.write(`  ${formatDiagnostic(diagnostic)}\n`);
  const where = instance ? ` on ${instance.url}` : "";
  const summary = `${slug} version ${version.number}: ${version.status}${version.isActive ? " (active)" : ""}${where}`;
  if (options.isJson)
    process.stdout.write(
      `${JSON.stringify({ ok: version.status === "ready", instance: instance?.url ?? null, version }, null, 2)}\n`,
    );
  else process.stdout.write(`${summary}\n`);
  return version.status === "ready" ? 0 : 1;
}

async function deployRemote(
  instance: Instance,
  upload: { slug: string; team?: string; archive: Buffer },
  progress: StepProgress,
): Promise<Deployed> {
  const total = formatBytes(upload.archive.byteLength);
  progress.start("uploading", `0 B / ${total}`);
  let isServerStepping = false;
  const version = await uploadVersion({
    instance,
    ...upload,
    onSent: (bytes) => progress.update(`${formatBytes(bytes)} / ${total}`),
    onStep: (step) => {
      isServerStepping = true;
      if (step === "received") progress.done(total);
      else progress.start(serverSteps[step]);
    },
  });
  // An instance that answers JSON only: its steps were one wait.
  if (!isServerStepping) progress.done(`${total}, validated and bundled`);
  return { ...version, slug: upload.slug };
}

async function deployLocal(
  config: Env,
  upload: { slug: string; team: string; archive: Buffer },
  progress: StepProgress,
): Promise<Deployed> {
  const { db } = database(config);
  try {
    const version = await createAgentVersion({
      db,
      dataDir: config.dataDir,
      teamId: await teamIdOf(db, upload.team),
      slug: upload.slug,
      archive: upload.archive,
      models: modelRouting(config),
      onStep: (step) => progress.start(step),
    });
    if (version.isActive) await restartSchedules(db, config, version.agentId);
    return { ...version, slug: upload.slug };
  } finally {
    await db.$disconnect();
  }
}

export const deployCommandSpec = defineCommand({
  name: "deploy",
  group: "remote",
  summary: "Upload an agent folder as a new version, to the logged-in instance or this installation's database",
  details: "Exit 0 for a ready version, 1 for an invalid one (its diagnostics listed) or a failure. docs/cli.md#deploy",
  flags: {
    dir: dirFlag,
    slug: {
      type: "string",
      value: "<agent>",
      description: "The agent's slug (default: the folder's name as a slug, `My Agent` → `my-agent`)",
    },
    team: {
      type: "string",
      value: "<slug>",
      description: "The team (needed on this installation's database; on an instance, the token's)",
    },
    json: jsonFlag,
    url: urlFlag,
    token: tokenFlag,
  },
  examples: [
    "agentfold deploy --dir examples/hello --slug hello",
    "agentfold deploy --dir examples/hello --team acme --slug hello   # on the server, no login",
  ],
  run: ({ flags }) =>
    deployCommand({
      dir: flags.dir ?? ".",
      slug: flags.slug,
      team: flags.team,
      isJson: flags.json,
      url: flags.url,
      token: flags.token,
    }),
});
