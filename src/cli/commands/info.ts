// agentfold info [--dir <folder>] [--json]: the agent's discovered surface.
import type { AgentManifest } from "@/agents/loader/manifest";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { loadForCli } from "./validate";

function list(title: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`${title} (${items.length})`, ...items.map((item) => `  ${item}`)];
}

export function describeManifest(m: AgentManifest): string {
  return [
    `${m.name}${m.description ? ` — ${m.description}` : ""}`,
    ...list("tools", m.tools.map((t) => `${t.name}  [${t.effect}${t.needsApproval ? ", needs approval" : ""}${t.execution === "agent" ? ", agent script" : ""}]  ${t.description}`)),
    ...list("skills", m.skills.map((s) => `${s.name}  (${s.form})  ${s.description ?? ""}`.trimEnd())),
    ...list("subagents", m.subagents.map((s) => `${s.id}  ${s.description ?? ""}`.trimEnd())),
    ...list("hooks", m.hooks.map((h) => `${h.name}  on ${h.events.join(", ")}`)),
    ...list("channels", m.channels.map((c) => `${c.name}${c.routes.map((r) => `  ${r.method} /v1/channels/${c.name}${r.path}`).join("")}`)),
    ...list("schedules", m.schedules.map((s) => `${s.name}  ${s.cron ?? "?"} UTC  (${s.mode})`)),
    ...list("connections", m.connections.map((c) => `${c.name}  (${c.scope}${c.transport ? `, ${c.transport}` : ""})`)),
    ...list("artifact kinds", m.artifactKinds.map((a) => `${a.kind}  ${a.description}`)),
    ...list("evals", m.evals.map((e) => `${e.id}${e.cases.length ? `  (${e.cases.length} cases)` : ""}`)),
    ...(m.result ? [`result contract  ${m.result.file}`] : []),
    ...list("workspace seed files", m.seedFiles),
  ].join("\n");
}

export async function infoCommand(options: { dir: string; json: boolean }): Promise<number> {
  const loaded = await loadForCli(options.dir);
  if (options.json) {
    console.log(JSON.stringify({ ok: loaded.ok, agent: loaded.manifest, diagnostics: loaded.diagnostics }, null, 2));
  } else {
    if (loaded.manifest) console.log(describeManifest(loaded.manifest));
    for (const diagnostic of loaded.diagnostics) console.log(formatDiagnostic(diagnostic));
  }
  return loaded.ok ? 0 : 1;
}
