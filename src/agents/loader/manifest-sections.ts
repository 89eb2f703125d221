// The manifest's sections, one kind of module each: tools, hooks, skills, subagents, connections,
// channels, schedules and the artifact registry, each from the layout and the sandbox's reports,
// with the diagnostics its modules earn.
import type { AgentLayout, ModuleRef } from "./layout";
import type { AgentManifest, ToolManifest } from "./manifest";
import { templateNames } from "@/agents/sdk/env-template";
import {
  checkModel,
  checkTemplates,
  expectKind,
  instructionsText,
  moduleError,
  text,
  type Check,
  type Summary,
} from "./manifest-checks";

/** A module form of the agent's instructions must export a string or defineInstructions(...). */
export function checkInstructionsModule(check: Check, layout: AgentLayout): void {
  if (layout.instructions?.form === "module") {
    const file = layout.instructions.files[0]!;
    const report = check.reports.get(file);
    if (report?.kind !== "string") expectKind(check, file, "instructions", "defineInstructions");
  }
}

export function tools(check: Check, refs: ModuleRef[]): ToolManifest[] {
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

export function hooks(check: Check, refs: ModuleRef[]) {
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

export function skills(check: Check, layout: AgentLayout): AgentManifest["skills"] {
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

export function subagents(check: Check, layout: AgentLayout, parentModel: string) {
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

/** MCP and host connections; `declared` is the agent's secret names, for checkTemplates. */
export function connections(check: Check, layout: AgentLayout, declared: Set<string>): AgentManifest["connections"] {
  return layout.connections.flatMap((ref) => {
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
}

/** The agent's secret names, sorted: the declared ones and every `${NAME}` in a connection. */
export function secretNames(declared: Set<string>, connections: AgentManifest["connections"]): string[] {
  return [...new Set([...declared, ...connections.flatMap((c) => templateNames(JSON.stringify(c.config)))])].sort();
}

export function channels(check: Check, layout: AgentLayout): AgentManifest["channels"] {
  return layout.channels.flatMap((ref) => {
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
  });
}

export function schedules(check: Check, layout: AgentLayout): AgentManifest["schedules"] {
  return layout.schedules.flatMap((ref): AgentManifest["schedules"] => {
    if (ref.form === "markdown")
      return [{ name: ref.name, file: ref.file, form: ref.form, cron: ref.cron, mode: "markdown", prompt: ref.prompt }];
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
  });
}

/** Extensions are listed as the layout has them; only a load error is theirs to report. */
export function checkExtensions(check: Check, layout: AgentLayout): void {
  for (const ext of layout.extensions) {
    const report = check.reports.get(ext.file);
    if (report?.error) moduleError(check, ext.file, report, `extension '${ext.name}': `);
  }
}

/** The artifact registry (artifacts.ts): its kinds, and the registry itself when it loaded. */
export function artifactRegistry(
  check: Check,
  layout: AgentLayout,
): Pick<AgentManifest, "artifactKinds" | "artifacts"> {
  const artifacts = layout.artifactsFile
    ? expectKind(check, layout.artifactsFile, "artifacts", "defineArtifacts")
    : undefined;
  return {
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
  };
}
