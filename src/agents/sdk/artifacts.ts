// `agentfold/artifacts`: defineArtifacts (docs/agent-folders.md, "The `define*` helpers"), the
// registry of artifact kinds, and the kind rules every `tag` goes through.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import { define, formatPath, zodSchemaSchema } from "./validation";

export type { ArtifactFilter, ArtifactRecord, ArtifactsApi, ArtifactTagInput } from "./types";
export type { SessionArtifactsApi } from "./tool-context";

export type ArtifactKind = { description: string; schema?: z.core.$ZodType };

export type ArtifactsConfig = {
  kinds?: Record<string, ArtifactKind>;
  /** Give the model a `tag_artifact` tool. Needs at least one declared kind. */
  agentTool?: boolean;
  /** Retention cap; self-hosted servers evict the oldest-updated record past it. */
  max?: number;
};

export type ArtifactsDescriptor = Descriptor<
  "artifacts",
  { kinds: Record<string, ArtifactKind>; agentTool: boolean; max: number }
>;

export const defaultArtifactKind = "artifact";
export const defaultArtifactMax = 1000;

// Kinds appear in URL paths (/v1/artifacts/:kind/:key).
const kindName = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const artifactsConfigSchema = z
  .strictObject({
    kinds: z
      .record(
        z.string().regex(kindName, "kind names are letters, digits, _ . - (at most 64)"),
        z.strictObject({
          description: z.string().refine((text) => text.trim() !== "", { error: "must not be empty" }),
          schema: zodSchemaSchema.optional(),
        }),
      )
      .default({}),
    agentTool: z.boolean().default(false),
    max: z.number().int().positive("must be a positive integer").default(defaultArtifactMax),
  })
  .superRefine((config, ctx) => {
    if (config.agentTool && Object.keys(config.kinds).length === 0) {
      ctx.addIssue({ code: "custom", path: ["agentTool"], message: "needs at least one declared kind" });
    }
  });

export function defineArtifacts(config: ArtifactsConfig): ArtifactsDescriptor {
  return define("artifacts", "defineArtifacts", artifactsConfigSchema, config);
}

/** Applies the kind rules to a tag. With declared kinds: only those, a missing kind means the
 * only declared one, and `data` is parsed by the kind's schema (the parsed value is stored).
 * Without: any kind, defaulting to "artifact". Throws an Error the model can read. */
export function resolveArtifactTag(
  registry: Pick<ArtifactsDescriptor, "kinds"> | undefined,
  input: { kind?: string; data?: unknown },
): { kind: string; data: unknown } {
  const declared = Object.keys(registry?.kinds ?? {});
  if (!registry || declared.length === 0) return { kind: input.kind ?? defaultArtifactKind, data: input.data };
  const kind = input.kind ?? (declared.length === 1 ? declared[0] : undefined);
  const entry = kind === undefined ? undefined : registry.kinds[kind];
  if (kind === undefined || !entry) {
    const declaredList = declared.join(", ");
    throw new Error(`unknown artifact kind ${JSON.stringify(input.kind)}; declared kinds: ${declaredList}`);
  }
  if (!entry.schema) return { kind, data: input.data };
  const result = z.safeParse(entry.schema, input.data);
  if (result.success) return { kind, data: result.data };
  const problems = result.error.issues.map((issue) => `${formatPath(issue.path) || "data"}: ${issue.message}`);
  throw new Error(`artifact data does not match kind "${kind}": ${problems.join("; ")}`);
}
