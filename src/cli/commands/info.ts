// agentfold info [--dir <folder>] [--slug <agent>] [--json]: the agent's discovered surface, and,
// when this installation's database answers and the agent is deployed there (as --slug, or the
// folder's name), which of its secrets are not set yet.
import path from "node:path";
import type { AgentManifest } from "@/agents/loader/manifest";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { getMissingSecrets } from "@/server/secrets/get-missing-secrets";
import { database } from "./admin";
import { loadForCli } from "./validate";
import { defineCommand } from "@/cli/command";
import { dirFlag, folderArg, jsonFlag } from "@/cli/flags";

function list(title: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`${title} (${items.length})`, ...items.map((item) => `  ${item}`)];
}

/** Secrets as deployed: the agent it checked and the names it lacks. */
export type DeployedSecrets = { slug: string; missing: string[] };

export function describeManifest(m: AgentManifest, deployed?: DeployedSecrets): string {
  const secretLine = (name: string) =>
    deployed ? `${name}  ${deployed.missing.includes(name) ? `missing on ${deployed.slug}` : "set"}` : name;
  return [
    `${m.name}${m.description ? ` — ${m.description}` : ""}`,
    ...list(
      "tools",
      m.tools.map(
        (t) =>
          `${t.name}  [${t.effect}${t.needsApproval ? ", needs approval" : ""}${t.execution === "agent" ? ", agent script" : ""}]  ${t.description}`,
      ),
    ),
    ...list(
      "skills",
      m.skills.map((s) => `${s.name}  (${s.form})  ${s.description ?? ""}`.trimEnd()),
    ),
    ...list(
      "subagents",
      m.subagents.map((s) => `${s.id}  ${s.description ?? ""}`.trimEnd()),
    ),
    ...list(
      "hooks",
      m.hooks.map((h) => `${h.name}  on ${h.events.join(", ")}`),
    ),
    ...list(
      "channels",
      m.channels.map(
        (c) => `${c.name}${c.routes.map((r) => `  ${r.method} /v1/channels/${c.name}${r.path}`).join("")}`,
      ),
    ),
    ...list(
      "schedules",
      m.schedules.map((s) => `${s.name}  ${s.cron ?? "?"} UTC  (${s.mode})`),
    ),
    ...list(
      "connections",
      m.connections.map((c) => `${c.name}  (${c.scope}${c.transport ? `, ${c.transport}` : ""})`),
    ),
    ...list("secrets", (m.secretNames ?? []).map(secretLine)),
    ...list(
      "artifact kinds",
      m.artifactKinds.map((a) => `${a.kind}  ${a.description}`),
    ),
    ...list(
      "evals",
      m.evals.map((e) => `${e.id}${e.cases.length ? `  (${e.cases.length} cases)` : ""}`),
    ),
    ...(m.result ? [`result contract  ${m.result.file}`] : []),
    ...list("workspace seed files", m.seedFiles),
  ].join("\n");
}

/** Undefined when there is nothing to check, no database configured or answering within a few
 * seconds, or no agent of that slug: info works on any folder, deployed or not. */
async function deployedSecrets(slug: string, names: string[]): Promise<DeployedSecrets | undefined> {
  if (names.length === 0) return undefined;
  let connection: ReturnType<typeof database>;
  try {
    connection = database();
  } catch {
    return undefined;
  }
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3_000).unref());
  try {
    const missing = await Promise.race([getMissingSecrets({ db: connection.db, slug, names }), timeout]);
    return missing ? { slug, missing } : undefined;
  } catch {
    return undefined;
  } finally {
    void connection.db.$disconnect().catch(() => undefined);
  }
}

export async function infoCommand(options: { dir: string; json: boolean; slug?: string }): Promise<number> {
  const loaded = await loadForCli(options.dir);
  const slug = options.slug ?? path.basename(path.resolve(options.dir));
  const deployed = loaded.manifest ? await deployedSecrets(slug, loaded.manifest.secretNames ?? []) : undefined;
  if (options.json) {
    const secrets = {
      names: loaded.manifest?.secretNames ?? [],
      ...(deployed ? { deployedAs: deployed.slug, missing: deployed.missing } : {}),
    };
    console.log(
      JSON.stringify({ ok: loaded.ok, agent: loaded.manifest, secrets, diagnostics: loaded.diagnostics }, null, 2),
    );
  } else {
    if (loaded.manifest) console.log(describeManifest(loaded.manifest, deployed));
    for (const diagnostic of loaded.diagnostics) console.log(formatDiagnostic(diagnostic));
  }
  return loaded.ok ? 0 : 1;
}

export const infoCommandSpec = defineCommand({
  name: "info",
  group: "develop",
  summary:
    "Show the agent's tools, skills, subagents, hooks, schedules … and its secrets (missing ones, when deployed here)",
  args: [folderArg],
  flags: {
    dir: dirFlag,
    slug: {
      type: "string",
      value: "<agent>",
      description: "The deployed agent to check secrets of (default: the folder's name)",
    },
    json: jsonFlag,
  },
  examples: ["agentfold info --dir examples/support-desk --json"],
  run: ({ flags, args }) => infoCommand({ dir: flags.dir ?? args[0] ?? ".", json: flags.json, slug: flags.slug }),
});
