// What `agentfold dev` prints about its agents (docs/cli.md, "dev"): with several agents each line
// starts with its agent's slug. Only true things: a broken folder with no earlier good version is
// not said to keep serving, and dev is not "ready" while an agent waits for its first good load.
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import type { DevLoad } from "./dev-agent";

export type ReportedAgent = { slug: string; isRoot: boolean };

const labelOf = (agent: ReportedAgent) => (agent.isRoot ? `${agent.slug}: ` : "");
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Where the agent answers; single-agent mode also answers unslugged at /v1. */
export function addressLines(base: string, agent: ReportedAgent): string[] {
  const label = labelOf(agent);
  return [
    `${label}playground: ${base}/${agent.slug}/playground`,
    `${label}API: ${base}/${agent.slug}/v1${agent.isRoot ? "" : ` (and ${base}/v1)`}; loopback callers need no token`,
  ];
}

/** The lines of one load: its diagnostics, then what serves now. */
export function loadLines(agent: ReportedAgent, loaded: DevLoad, ms: number, canType: boolean): string[] {
  const label = labelOf(agent);
  const lines = loaded.diagnostics.map((diagnostic) => `${label}${formatDiagnostic(diagnostic)}`);
  if (loaded.status === "ready") {
    const moved = loaded.movedSessions ? ` (${plural(loaded.movedSessions, "session")} moved to it)` : "";
    return [...lines, `${label}version ${loaded.number} ready in ${ms} ms${moved}`];
  }
  const errors = loaded.diagnostics.filter((d) => d.level === "error").length;
  const problems = `${label}version ${loaded.number} has ${plural(errors, "error")}`;
  return [
    ...lines,
    loaded.isServing
      ? `${problems}; the last good version keeps serving`
      : `${problems} and no version loaded before it: nothing is served yet; it serves once the folder loads (save a fix${canType ? ", or press Enter" : ""})`,
  ];
}

/** The line that ends start-up: ready, or started and waiting for the agents with nothing to serve. */
export function startedLine(seconds: number, watching: string, waiting: string[]): string {
  const took = `${seconds.toFixed(1)} s`;
  return waiting.length === 0
    ? `ready in ${took}; ${watching}`
    : `started in ${took}; ${watching}; waiting for ${waiting.join(", ")} to load`;
}
