// The static shape of an agent folder: which file is which capability (the map at the top of
// docs/agent-folders.md), found by path alone, before any of the agent's code runs.

export type ModuleRef = { name: string; file: string };

export type SkillRef =
  | { name: string; form: "markdown"; file: string; description?: string }
  | { name: string; form: "packaged"; file: string; description?: string; files: string[] }
  | { name: string; form: "generated"; file: string };

export type ScheduleRef =
  | { name: string; form: "markdown"; file: string; cron?: string; prompt: string }
  | { name: string; form: "module"; file: string };

export type ConnectionRef = ModuleRef & { scope: "mcp" | "host"; isLegacyPath: boolean };

export type InstructionsRef = { form: "markdown" | "module" | "directory"; files: string[] };

export type SubagentRef = {
  id: string;
  dir: string;
  agentFile?: string;
  instructions?: InstructionsRef;
};

/** The folders that hold an agent inside an uploaded folder: `bot`, or the legacy `agent`. */
export const agentRootFolders = ["bot", "agent"] as const;

export type AgentLayout = {
  /** `bot` or `agent`: the folder that holds the agent, inside the uploaded folder. */
  root: (typeof agentRootFolders)[number];
  name: string;
  agentFile?: string;
  instructions?: InstructionsRef;
  tools: ModuleRef[];
  skills: SkillRef[];
  subagents: SubagentRef[];
  hooks: ModuleRef[];
  channels: ModuleRef[];
  schedules: ScheduleRef[];
  connections: ConnectionRef[];
  extensions: ModuleRef[];
  artifactsFile?: string;
  resultFile?: string;
  /** Paths relative to `sandbox/workspace/`. */
  seedFiles: string[];
  chips: { tool: string; file: string }[];
  evals: { id: string; file: string }[];
  evalConfigFile?: string;
};

/** Every file whose code the sandbox evaluates to learn the agent's surface. */
export function moduleFiles(layout: AgentLayout): string[] {
  const files = [
    layout.agentFile,
    layout.instructions?.form === "module" ? layout.instructions.files[0] : undefined,
    ...layout.tools.map((t) => t.file),
    ...layout.skills.filter((s) => s.form === "generated").map((s) => s.file),
    ...layout.subagents.map((s) => s.agentFile),
    ...layout.subagents.map((s) => (s.instructions?.form === "module" ? s.instructions.files[0] : undefined)),
    ...layout.hooks.map((h) => h.file),
    ...layout.channels.map((c) => c.file),
    ...layout.schedules.filter((s) => s.form === "module").map((s) => s.file),
    ...layout.connections.map((c) => c.file),
    ...layout.extensions.map((e) => e.file),
    layout.artifactsFile,
    layout.resultFile,
    ...layout.evals.map((e) => e.file),
    layout.evalConfigFile,
  ];
  return files.filter((file): file is string => file !== undefined);
}
