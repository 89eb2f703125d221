// The shape every built-in workspace tool shares, and the one place its input is validated, so
// each tool body only ever sees parsed input and the model gets one style of input error.
import type { z } from "zod";
import type { ToolEffect } from "@/agents/sdk/tools";
import { parseToolInput, toJsonSchema, type JSONSchema } from "@/agents/sdk/tool-schemas";
import type { JsonValue } from "@/agents/sdk/types";

export const workspaceToolNames = ["read", "ls", "grep", "glob", "write", "edit"] as const;
export type WorkspaceToolName = (typeof workspaceToolNames)[number];

export type WorkspaceTool = {
  name: WorkspaceToolName;
  /** What the model reads. */
  description: string;
  effect: ToolEffect;
  inputSchema: JSONSchema;
  /** Validates `input`, then runs; every failure is an Error whose message the model can act on. */
  execute(input: unknown): Promise<string | JsonValue>;
};

export function defineWorkspaceTool<S extends z.ZodType>(spec: {
  name: WorkspaceToolName;
  description: string;
  effect: ToolEffect;
  input: S;
  run: (input: z.output<S>) => Promise<string | JsonValue>;
}): WorkspaceTool {
  return {
    name: spec.name,
    description: spec.description,
    effect: spec.effect,
    inputSchema: toJsonSchema(spec.input, "input"),
    // Throws ToolInputError ("invalid tool input: path: …") before the body runs.
    execute: async (input) => spec.run(parseToolInput({ inputSchema: spec.input }, input) as z.output<S>),
  };
}
