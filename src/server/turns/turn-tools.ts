// The tools a model step is offered: the agent's own tools (run in its sandbox), the built-in
// workspace tools its `tools` allowlist keeps, `skill` to load a skill in full, and `task` to
// delegate to a subagent. An agent tool with a built-in's name replaces the built-in.
import fs from "node:fs";
import path from "node:path";
import type { ToolManifest } from "@/agents/loader/manifest";
import { workspaceTools } from "@/agents/runtime/workspace-tools";
import type { ReminderInput } from "@/server/reminders/reminders";
import type { TurnSetup } from "./engine";

type Common = {
  name: string;
  description: string;
  inputSchema: object;
  effect: "read" | "write";
  /** A built-in that waits for a person first (an MCP tool its server marks destructive). */
  needsApproval?: boolean;
  /** A write whose second run adds nothing (keyed on the call, or an update in place): run again
   * after a crash, as a read is, rather than claimed and failed as interrupted (tool-call.ts). */
  isIdempotent?: boolean;
};

export type ToolSpec =
  | (Common & { kind: "agent"; tool: ToolManifest })
  | (Common & {
      kind: "builtin";
      execute: (input: unknown, call: { callId: string; signal: AbortSignal }) => Promise<unknown>;
    })
  | (Common & { kind: "task" });

const emptyObject = { type: "object", properties: {}, additionalProperties: true };

export type ReminderCreator = (input: ReminderInput) => Promise<{ id: string; fireAt: string }>;

/** The model's tag_artifact, run through the registry in the sandbox (artifacts-api.ts). */
export type ArtifactTagger = (input: unknown) => Promise<unknown>;

export function turnTools(
  setup: TurnSetup,
  options: {
    canDelegate: boolean;
    remind?: ReminderCreator;
    tagArtifact?: ArtifactTagger;
    /** The turn's MCP connections' tools (connection-tools.ts). */
    connections?: ToolSpec[];
  },
): ToolSpec[] {
  const { manifest } = setup;
  const specs: ToolSpec[] = manifest.tools.map((tool) => ({
    kind: "agent",
    name: tool.name,
    description: tool.description,
    inputSchema: (tool.inputSchema as object | undefined) ?? emptyObject,
    effect: tool.effect,
    tool,
  }));
  const taken = new Set(specs.map((spec) => spec.name));
  for (const spec of options.connections ?? []) {
    if (!taken.has(spec.name)) specs.push(spec), taken.add(spec.name);
  }
  for (const builtin of workspaceTools({ workspaceDir: setup.workspaceDir, allowlist: manifest.builtinTools })) {
    if (!taken.has(builtin.name))
      specs.push({ kind: "builtin", ...builtin, inputSchema: builtin.inputSchema as object });
  }
  if (manifest.skills.length > 0 && !taken.has("skill")) specs.push(skillTool(setup));
  if (options.remind && !taken.has("remind")) specs.push(remindTool(options.remind));
  if (options.tagArtifact && manifest.artifacts?.agentTool && !taken.has("tag_artifact"))
    specs.push(tagArtifactTool(setup, options.tagArtifact));
  if (options.canDelegate && manifest.subagents.length > 0 && !taken.has("task")) {
    specs.push({
      kind: "task",
      name: "task",
      effect: "read",
      description: `Delegate a piece of work to a subagent and get its final answer. Subagents: ${manifest.subagents.map((s) => s.id).join(", ")}.`,
      inputSchema: {
        type: "object",
        properties: {
          subagent: { type: "string", enum: manifest.subagents.map((s) => s.id) },
          prompt: { type: "string", description: "What the subagent should do, with all the context it needs." },
        },
        required: ["subagent", "prompt"],
        additionalProperties: false,
      },
    });
  }
  return specs;
}

function skillTool(setup: TurnSetup): ToolSpec {
  const names = setup.manifest.skills.map((skill) => skill.name);
  return {
    kind: "builtin",
    name: "skill",
    effect: "read",
    description: "Load the full text of one of this agent's skills.",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", enum: names } },
      required: ["name"],
      additionalProperties: false,
    },
    async execute(input) {
      const name = (input as { name?: unknown })?.name;
      if (typeof name !== "string" || !names.includes(name))
        throw new Error(`no skill named ${String(name)}; skills: ${names.join(", ")}`);
      return fs.readFileSync(path.join(setup.workspaceDir, ".cursor", "skills", name, "SKILL.md"), "utf8");
    },
  };
}

/** Sets a reminder for this session: its prompt comes back as a message at that time. */
function remindTool(remind: ReminderCreator): ToolSpec {
  return {
    kind: "builtin",
    name: "remind",
    effect: "write",
    description:
      'Set a reminder for this conversation: at the time given, the prompt arrives as a new message. Give `in` ("90s", "5m", "2h", "1d") or `at` (an ISO date).',
    inputSchema: {
      type: "object",
      properties: {
        in: { type: "string" },
        at: { type: "string" },
        prompt: { type: "string" },
        id: { type: "string" },
      },
      required: ["prompt"],
      additionalProperties: false,
    },
    // A call that runs again after a crash sets the same reminder, not a second one.
    isIdempotent: true,
    execute: (input, call) => remind({ id: `rem_${call.callId}`, ...(input as ReminderInput) }),
  };
}

/** Records an artifact of one of the agent's declared kinds (docs/agent-folders.md, "Artifacts"). */
function tagArtifactTool(setup: TurnSetup, tag: ArtifactTagger): ToolSpec {
  const kinds = setup.manifest.artifactKinds;
  return {
    kind: "builtin",
    name: "tag_artifact",
    effect: "write",
    description: `Record an artifact (created, or updated when the kind and key exist). Kinds: ${kinds.map((k) => `${k.kind} (${k.description})`).join("; ")}.`,
    inputSchema: {
      type: "object",
      properties: {
        kind: { type: "string", enum: kinds.map((k) => k.kind) },
        key: { type: "string", description: "A stable id within the kind: the same key updates the record." },
        title: { type: "string" },
        data: { description: "The record's data, as the kind's schema describes it." },
      },
      required: ["key"],
      additionalProperties: false,
    },
    // The same kind and key update one record: a second run writes what the first did.
    isIdempotent: true,
    execute: (input) => tag(input),
  };
}
