// The agent's surface ("manifest"): the static layout joined with what the sandbox reported
// after loading each module, plus the diagnostics only loading can find
// (docs/agent-folders.md, "Validating").
import type { Diagnostics } from "./diagnostics";
import { definitionLocation, fieldLines, stackLocation, type FieldLines } from "./source-lines";
import type { AgentLayout, ModuleRef } from "./layout";
import type { ModuleReport } from "@/agents/sandbox/protocol";
import { templateNames } from "@/agents/sdk/env-template";
import { chooseModel, type ModelRouting } from "@/agents/runtime/models/model-choice";
import { hostedOnlyWarnings, modelProblems } from "./agent-checks";

type Summary = Record<string, unknown>;

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

type Check = {
  reports: Map<string, ModuleReport>;
  diagnostics: Diagnostics;
  texts: Map<string, string>;
  routing: ModelRouting;
  /** The folder on disk, for the lines diagnostics point at (absent: no lines). */
  folderDir?: string;
  lineOf: FieldLines;
};

/** A module's load error, on the author's file and line that caused it (a shared module's error
 * once, however many modules import it). */
function moduleError(check: Check, file: string, report: ModuleReport, prefix = ""): void {
  const at = check.folderDir ? stackLocation(report.errorStack, check.folderDir) : undefined;
  const located = at ? definitionLocation(at, report.error ?? "", check.lineOf) : undefined;
  check.diagnostics.error(located?.file ?? file, prefix + (report.error ?? ""), located?.line);
}

/** Without the instance's settings (AGENTFOLD_DEFAULT_MODEL, AGENTFOLD_MODEL_ALIASES): their defaults. */
export const defaultModelRouting: ModelRouting = { defaultModel: "local:scripted", aliases: {} };

/** The text of instructions in any form; module forms come from the sandbox's report. */
function instructionsText(check: Check, ref: AgentLayout["instructions"], inline?: unknown): string {
  if (!ref) return typeof inline === "string" ? inline : "";
  if (ref.form !== "module") return ref.files.map((file) => (check.texts.get(file) ?? "").trim()).join("\n\n");
  const report = check.reports.get(ref.files[0]!);
  if (report?.kind === "string") return String(report.summary);
  const markdown = (report?.summary as Summary | undefined)?.markdown;
  return typeof markdown === "string" ? markdown : "";
}

/** The report for a file when its default export is the expected kind; diagnostics otherwise. */
function expectKind(check: Check, file: string, kind: string, helper: string): Summary | undefined {
  const report = check.reports.get(file);
  if (!report) return undefined;
  if (report.error) {
    moduleError(check, file, report);
    return undefined;
  }
  if (report.kind !== kind) {
    check.diagnostics.error(file, `the default export is not ${helper}(...)`);
    return undefined;
  }
  return (report.summary ?? {}) as Summary;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

function tools(check: Check, refs: ModuleRef[]): ToolManifest[] {
  return refs.flatMap((ref) => {
    const s = expectKind(check, ref.file, "tool", "defineTool");
    if (!s) return [];
    return [
      {
        name: ref.name,
        file: ref.file,
        description: text(s.description) ?? "",
        effect: s.effect === "read" ? "read" : "write",
        execution: s.execution === "agent" ? "agent" : "server",
        needsApproval: s.needsApproval === "dynamic" ? "dynamic" : Boolean(s.needsApproval),
        timeoutMs: typeof s.timeoutMs === "number" ? s.timeoutMs : undefined,
        ...(s.dryRunResult === "value" || s.dryRunResult === "function" ? { dryRunResult: s.dryRunResult } : {}),
        inputSchema: s.inputSchema,
        outputSchema: s.outputSchema,
      },
    ];
  });
}

function hooks(check: Check, refs: ModuleRef[]) {
  return refs.flatMap((ref) => {
    const s = expectKind(check, ref.file, "hook", "defineHook");
    if (!s) return [];
    const events = Array.isArray(s.events) ? s.events.map(String) : [];
    if (events.length === 0) {
      check.diagnostics.warning(ref.file, "the hook has an empty `events` map and is skipped");
      return [];
    }
    return [{ name: ref.name, file: ref.file, events }];
  });
}

function evals(check: Check, layout: AgentLayout): AgentManifest["evals"] {
  return layout.evals.flatMap((ref) => {
    const report = check.reports.get(ref.file);
    if (report?.error) return (moduleError(check, ref.file, report), []);
    if (report?.kind === "array") {
      const items = report.items ?? [];
      if (items.some((item) => item.kind !== "eval"))
        return (check.diagnostics.error(ref.file, "every item of the exported array must be defineEval(...)"), []);
      return items.map((item, index) => ({
        ...evalSummary(item.summary as Summary),
        id: `${ref.id}/${String(index).padStart(4, "0")}`,
        file: ref.file,
        index,
      }));
    }
    const s = expectKind(check, ref.file, "eval", "defineEval");
    if (!s) return [];
    return [{ ...evalSummary(s), id: ref.id, file: ref.file }];
  });
}

/** What the runner and the listing need of one defineEval: its cases, tags, iterations, timeout. */
function evalSummary(s: Summary) {
  const cases = Array.isArray(s.cases) ? (s.cases as Summary[]) : [];
  const caseTags = Object.fromEntries(
    cases.flatMap((c) => (Array.isArray(c.tags) && c.tags.length > 0 ? [[String(c.id), c.tags.map(String)]] : [])),
  );
  return {
    cases: cases.map((c) => String(c.id)),
    tags: Array.isArray(s.tags) ? s.tags.map(String) : [],
    ...(Object.keys(caseTags).length > 0 ? { caseTags } : {}),
    iterations: typeof s.iterations === "number" ? s.iterations : 1,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    ...(typeof s.timeoutMs === "number" ? { timeoutMs: s.timeoutMs } : {}),
  };
}

function evalConfig(check: Check, layout: AgentLayout): AgentManifest["evalConfig"] {
  if (!layout.evalConfigFile) return undefined;
  const s = expectKind(check, layout.evalConfigFile, "eval-config", "defineEvalConfig");
  return s && typeof s.maxConcurrency === "number" ? { maxConcurrency: s.maxConcurrency } : undefined;
}

function skills(check: Check, layout: AgentLayout): AgentManifest["skills"] {
  return layout.skills.flatMap((skill): AgentManifest["skills"] => {
    if (skill.form === "markdown")
      return [{ name: skill.name, form: skill.form, file: skill.file, description: skill.description }];
    if (skill.form === "packaged")
      return [
        { name: skill.name, form: skill.form, file: skill.file, description: skill.description, files: skill.files },
      ];
    const s = expectKind(check, skill.file, "skill", "defineSkill");
    if (!s) return [];
    return [
      {
        name: skill.name,
        form: skill.form,
        file: skill.file,
        description: text(s.description),
        content: text(s.markdown),
      },
    ];
  });
}

/** The agent's model: an error when no turn could run on it, else a warning per note (notes returned). */
function checkModel(check: Check, file: string | undefined, model: unknown, routing = check.routing): string[] {
  const { error, notes } = modelProblems(model, routing);
  if (error) check.diagnostics.error(file, error);
  for (const note of notes) check.diagnostics.warning(file, note);
  return notes;
}

function subagents(check: Check, layout: AgentLayout, parentModel: string) {
  return layout.subagents.map((sub) => {
    const s = sub.agentFile ? expectKind(check, sub.agentFile, "agent", "defineAgent") : undefined;
    const description = text(s?.description);
    if (!description)
      check.diagnostics.error(
        sub.agentFile ?? `${sub.dir}/`,
        `subagent '${sub.id}' has no description: add defineAgent({ description }) in agent.ts`,
      );
    if (!sub.instructions && !text(s?.instructions))
      check.diagnostics.error(`${sub.dir}/`, `subagent '${sub.id}' has no instructions`);
    // A subagent's model falls back to its parent's (src/server/turns/subagent.ts).
    checkModel(check, sub.agentFile, s?.model, {
      ...check.routing,
      defaultModel: parentModel,
      fallbackName: "the parent agent's model",
    });
    return {
      id: sub.id,
      description,
      model: s?.model,
      instructionsText: instructionsText(check, sub.instructions, s?.instructions),
    };
  });
}

/** `${NAME}` templates in a connection whose variable the agent does not declare (warning). */
function checkTemplates(check: Check, file: string, config: unknown, declared: Set<string>): void {
  for (const name of templateNames(JSON.stringify(config ?? {}))) {
    if (!declared.has(name))
      check.diagnostics.warning(
        file,
        `uses \${${name}}, but ${name} is not a declared secret (agent.ts hosting.secretNames)`,
      );
  }
}

export function buildManifest(
  layout: AgentLayout,
  reports: ModuleReport[],
  diagnostics: Diagnostics,
  texts: Map<string, string>,
  options: { routing?: ModelRouting; folderDir?: string } = {},
): AgentManifest {
  const check: Check = {
    reports: new Map(reports.map((r) => [r.file, r])),
    diagnostics,
    texts,
    routing: options.routing ?? defaultModelRouting,
    folderDir: options.folderDir,
    lineOf: options.folderDir ? fieldLines(options.folderDir) : () => undefined,
  };
  const agent = layout.agentFile ? expectKind(check, layout.agentFile, "agent", "defineAgent") : undefined;
  if (layout.instructions?.form === "module") {
    const file = layout.instructions.files[0]!;
    const report = check.reports.get(file);
    if (report?.kind !== "string") expectKind(check, file, "instructions", "defineInstructions");
  }
  const modelNotes = checkModel(check, layout.agentFile, agent?.model);
  for (const warning of hostedOnlyWarnings(agent)) diagnostics.warning(layout.agentFile, warning);
  const declared = new Set(((agent?.hosting as Summary | undefined)?.secretNames as string[] | undefined) ?? []);
  const artifacts = layout.artifactsFile
    ? expectKind(check, layout.artifactsFile, "artifacts", "defineArtifacts")
    : undefined;
  if (layout.resultFile) expectKind(check, layout.resultFile, "result", "defineResult");
  for (const ext of layout.extensions) {
    const report = check.reports.get(ext.file);
    if (report?.error) moduleError(check, ext.file, report, `extension '${ext.name}': `);
  }
  const connections = layout.connections.flatMap((ref) => {
    const s = expectKind(check, ref.file, "connection", "defineConnection");
    if (s) checkTemplates(check, ref.file, s, declared);
    // Peers are the model's to ask; host code has no way to a peer (ctx.host.mcp is for servers).
    if (s?.form === "agent" && ref.scope === "host")
      check.diagnostics.warning(
        ref.file,
        "a peer agent in host-connections/ is never used: move it to mcp-connections/",
      );
    return s ? [{ name: ref.name, file: ref.file, scope: ref.scope, transport: text(s.form), config: s }] : [];
  });
  const secretNames = [
    ...new Set([...declared, ...connections.flatMap((c) => templateNames(JSON.stringify(c.config)))]),
  ].sort();
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
    channels: layout.channels.flatMap((ref) => {
      const s = expectKind(check, ref.file, "channel", "defineChannel");
      const routes = (Array.isArray(s?.routes) ? s.routes : []) as Summary[];
      return s
        ? [
            {
              name: ref.name,
              file: ref.file,
              routes: routes.map((r) => ({
                method: String(r.method),
                path: String(r.path),
                description: text(r.description),
              })),
              config: s,
            },
          ]
        : [];
    }),
    schedules: layout.schedules.flatMap((ref): AgentManifest["schedules"] => {
      if (ref.form === "markdown")
        return [
          { name: ref.name, file: ref.file, form: ref.form, cron: ref.cron, mode: "markdown", prompt: ref.prompt },
        ];
      const s = expectKind(check, ref.file, "schedule", "defineSchedule");
      const markdown = text(s?.markdown);
      return s
        ? [
            {
              name: ref.name,
              file: ref.file,
              form: ref.form,
              cron: text(s.cron),
              mode: markdown ? "markdown" : "run",
              ...(markdown ? { prompt: markdown } : {}),
            },
          ]
        : [];
    }),
    connections,
    extensions: layout.extensions,
    artifactKinds: Object.entries((artifacts?.kinds ?? {}) as Record<string, Summary>).map(([kind, k]) => ({
      kind,
      description: text(k?.description) ?? "",
    })),
    ...(artifacts && layout.artifactsFile
      ? {
          artifacts: {
            file: layout.artifactsFile,
            agentTool: artifacts.agentTool === true,
            max: typeof artifacts.max === "number" ? artifacts.max : 1000,
          },
        }
      : {}),
    result: layout.resultFile ? { file: layout.resultFile } : undefined,
    evals: evals(check, layout),
    ...(layout.evalConfigFile ? { evalConfig: evalConfig(check, layout) } : {}),
    seedFiles: layout.seedFiles,
    chips: layout.chips,
    secretNames,
    egressDomains: (agent?.hosting as Summary | undefined)?.egressDomains as string[] | undefined,
  };
}
