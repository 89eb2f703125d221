// The agent's surface ("manifest"): the static layout joined with what the sandbox reported
// after loading each module, plus the diagnostics only loading can find
// (docs/agent-folders.md, "Validating"). Each kind's section is built in manifest-sections.ts and
// manifest-evals.ts, with the checks they share in manifest-checks.ts.
import type { Diagnostics } from "./diagnostics";
import type { AgentLayout } from "./layout";
import type { ModuleReport } from "@/agents/sandbox/protocol";
import { chooseModel, type ModelRouting } from "@/agents/runtime/models/model-choice";
import { hostedOnlyWarnings } from "./agent-checks";
import { checkModel, expectKind, instructionsText, newCheck, text, type Summary } from "./manifest-checks";
import { evalConfig, evals } from "./manifest-evals";
import {
  artifactRegistry,
  channels,
  checkExtensions,
  checkInstructionsModule,
  connections,
  hooks,
  schedules,
  secretNames,
  skills,
  subagents,
  tools,
} from "./manifest-sections";

export type ToolManifest = {
  name: string;
  file: string;
  description: string;
  effect: "read" | "write";
  execution: "server" | "agent";
  needsApproval: boolean | "dynamic";
  timeoutMs?: number;
  /** The tool's stand-in for dry-run sessions: a value or a function (run in the sandbox). */
  dryRunResult?: "value" | "function";
  inputSchema?: unknown;
  outputSchema?: unknown;
};

/** A hook module and the event keys of its `events` map (a type or "*"). */
export type HookManifest = { name: string; file: string; events: string[] };

export type AgentManifest = {
  name: string;
  root: "bot" | "agent";
  /** Where the folder is in its upload when the upload is the project above it (pack-project.ts). */
  folder?: string;
  description?: string;
  model?: unknown;
  /** How this instance runs `model` when it is not exactly what the folder wrote (a Cursor id with
   * no alias, params the provider does not take): validate's warnings, repeated in session.started. */
  modelNotes?: string[];
  /** agent.ts `tools`: the allowlist of built-in harness tools; absent = all of them. */
  builtinTools?: string[];
  /** agent.ts `concurrency.maxRunningTurns`: turns of this agent running at once. */
  maxRunningTurns?: number;
  instructions?: AgentLayout["instructions"];
  /** The composed system prompt (markdown, a directory in filename order, or a module's text). */
  instructionsText: string;
  tools: ToolManifest[];
  skills: {
    name: string;
    form: "markdown" | "packaged" | "generated";
    file: string;
    description?: string;
    /** Sibling files of a packaged skill, relative to its folder. */
    files?: string[];
    /** A generated skill's markdown, from defineSkill. */
    content?: string;
  }[];
  subagents: { id: string; description?: string; model?: unknown; instructionsText: string }[];
  hooks: HookManifest[];
  channels: {
    name: string;
    file: string;
    routes: { method: string; path: string; description?: string }[];
    config: unknown;
  }[];
  /** `prompt`: the task a markdown schedule starts (the file's body, or defineSchedule's markdown). */
  schedules: { name: string; file: string; form: string; cron?: string; mode: "markdown" | "run"; prompt?: string }[];
  connections: { name: string; file: string; scope: "mcp" | "host"; transport?: string; config: unknown }[];
  extensions: { name: string; file: string }[];
  artifactKinds: { kind: string; description: string }[];
  /** The registry (artifacts.ts): its module, whether the model gets `tag_artifact`, the cap. */
  artifacts?: { file: string; agentTool: boolean; max: number };
  result?: { file: string };
  /** Each eval (an exported array: one per item, `index` naming it) with its case ids. */
  evals: {
    id: string;
    file: string;
    cases: string[];
    tags?: string[];
    /** Per case id: the case's own tags (added to the eval's). */
    caseTags?: Record<string, string[]>;
    iterations?: number;
    description?: string;
    timeoutMs?: number;
    index?: number;
  }[];
  /** evals/evals.config.ts (docs/evals.md); absent: the defaults. */
  evalConfig?: { maxConcurrency: number };
  seedFiles: string[];
  chips: AgentLayout["chips"];
  /** The secrets the agent expects, sorted: hosting.secretNames and every `${NAME}` in a
   * connection. Only these reach its sandbox. Absent from manifests built before it was kept. */
  secretNames?: string[];
  /** `hosting.egressDomains`: when present, the only hosts its code may reach (within the
   * instance's AGENTFOLD_EGRESS). */
  egressDomains?: string[];
};

/** A manifest with nothing in it (and no root folder): what a version without one runs with, and
 * the base of partial ones. */
export const emptyManifest: Omit<AgentManifest, "root"> = {
  name: "",
  instructionsText: "",
  tools: [],
  skills: [],
  subagents: [],
  hooks: [],
  channels: [],
  schedules: [],
  connections: [],
  extensions: [],
  artifactKinds: [],
  evals: [],
  seedFiles: [],
  chips: [],
};

/** Without the instance's settings (AGENTFOLD_DEFAULT_MODEL, AGENTFOLD_MODEL_ALIASES): their defaults. */
export const defaultModelRouting: ModelRouting = { defaultModel: "local:scripted", aliases: {} };

export function buildManifest(
  layout: AgentLayout,
  reports: ModuleReport[],
  diagnostics: Diagnostics,
  texts: Map<string, string>,
  options: { routing?: ModelRouting; folderDir?: string } = {},
): AgentManifest {
  const check = newCheck(reports, diagnostics, texts, options.routing ?? defaultModelRouting, options.folderDir);
  const agent = layout.agentFile ? expectKind(check, layout.agentFile, "agent", "defineAgent") : undefined;
  checkInstructionsModule(check, layout);
  const modelNotes = checkModel(check, layout.agentFile, agent?.model);
  for (const warning of hostedOnlyWarnings(agent)) diagnostics.warning(layout.agentFile, warning);
  const declared = new Set(((agent?.hosting as Summary | undefined)?.secretNames as string[] | undefined) ?? []);
  const artifacts = artifactRegistry(check, layout);
  if (layout.resultFile) expectKind(check, layout.resultFile, "result", "defineResult");
  checkExtensions(check, layout);
  const connectionList = connections(check, layout, declared);
  return {
    // defineAgent's name is the display name; the package or folder name is only the default.
    name: text(agent?.name) ?? layout.name,
    root: layout.root,
    description: text(agent?.description),
    model: agent?.model,
    ...(modelNotes.length > 0 ? { modelNotes } : {}),
    ...(Array.isArray(agent?.tools) ? { builtinTools: (agent.tools as unknown[]).map(String) } : {}),
    ...(typeof (agent?.concurrency as Summary | undefined)?.maxRunningTurns === "number"
      ? { maxRunningTurns: (agent!.concurrency as Summary).maxRunningTurns as number }
      : {}),
    instructions: layout.instructions,
    instructionsText: instructionsText(check, layout.instructions),
    tools: tools(check, layout.tools),
    skills: skills(check, layout),
    subagents: subagents(check, layout, chooseModel(agent?.model, check.routing).id),
    hooks: hooks(check, layout.hooks),
    channels: channels(check, layout),
    schedules: schedules(check, layout),
    connections: connectionList,
    extensions: layout.extensions,
    ...artifacts,
    result: layout.resultFile ? { file: layout.resultFile } : undefined,
    evals: evals(check, layout),
    ...(layout.evalConfigFile ? { evalConfig: evalConfig(check, layout) } : {}),
    seedFiles: layout.seedFiles,
    chips: layout.chips,
    secretNames: secretNames(declared, connectionList),
    egressDomains: (agent?.hosting as Summary | undefined)?.egressDomains as string[] | undefined,
  };
}
