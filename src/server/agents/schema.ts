// Inputs and outputs of the agents domain.
import { z } from "zod";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import type { AgentManifest } from "@/agents/loader/manifest";
import { roleSchema } from "@/server/teams/schema";

// The slug rule of src/agents/loader/names.ts: every agent's slug matches it, so one that does
// not names no agent.
export const agentSlugPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const agentSlugSchema = z
  .string()
  .regex(agentSlugPattern, "not an agent slug (letters, digits, '_' and '-', at most 64)");

export type AgentVersionSummary = {
  id: string;
  agentId: string;
  slug: string;
  number: number;
  status: "ready" | "invalid";
  isActive: boolean;
  diagnostics: Diagnostic[];
  manifest: AgentManifest | null;
  fileCount: number;
  sourceBytes: number;
  createdAt: Date;
};

/** An agent by slug: within the caller's team for team procedures, on the instance for `locate`. */
export const agentInputSchema = z.object({ slug: agentSlugSchema });

/** Where an agent sits for the caller: null when it is in none of their teams, or nobody signed in. */
export const agentLocationSchema = z
  .object({ teamSlug: z.string(), teamName: z.string(), role: roleSchema })
  .nullable();
export type AgentLocation = z.infer<typeof agentLocationSchema>;

/** How many of each the active version declares (0 each without one). */
export const surfaceCountsSchema = z.object({
  tools: z.number(),
  skills: z.number(),
  subagents: z.number(),
  hooks: z.number(),
  channels: z.number(),
  schedules: z.number(),
});

export const teamAgentSchema = z.object({
  teamId: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(["active", "no_active_version"]),
  /** The active version's number. */
  activeVersion: z.number().nullable(),
  versionCount: z.number(),
  surface: surfaceCountsSchema,
  updatedAt: z.date(),
});
export const teamAgentsSchema = z.array(teamAgentSchema);

/** The home page's list: each agent with the team it belongs to. */
export const myAgentSchema = teamAgentSchema.extend({ team: z.object({ slug: z.string(), name: z.string() }) });
export const myAgentsSchema = z.array(myAgentSchema);
export type MyAgent = z.infer<typeof myAgentSchema>;

// The shape of src/agents/loader/diagnostics.ts, as stored in AgentVersion.diagnostics.
export const diagnosticSchema = z.object({
  level: z.enum(["error", "warning"]),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  message: z.string(),
});

const namedItemSchema = z.object({ name: z.string(), description: z.string() });

export const agentDetailSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  allowAnonymous: z.boolean(),
  /** Newest first. */
  versions: z.array(
    z.object({
      id: z.string(),
      number: z.number(),
      status: z.enum(["ready", "invalid"]),
      diagnostics: z.array(diagnosticSchema),
      fileCount: z.number(),
      sourceBytes: z.number(),
      createdAt: z.date(),
      isActive: z.boolean(),
      /** The uploader's name or email (null when they have neither); a fixed phrase without one. */
      createdBy: z.string().nullable(),
    }),
  ),
  /** What the active version offers, one line each; null without an active version. */
  surface: z
    .object({
      /** The model id when agent.ts names one as a string. */
      model: z.string().nullable(),
      tools: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          effect: z.enum(["read", "write"]),
          needsApproval: z.boolean(),
        }),
      ),
      skills: z.array(namedItemSchema),
      subagents: z.array(namedItemSchema),
      hooks: z.array(namedItemSchema),
      channels: z.array(namedItemSchema),
      schedules: z.array(namedItemSchema),
    })
    .nullable(),
});

export const activateVersionInputSchema = agentInputSchema.extend({ number: z.number().int().positive() });
export const activatedVersionSchema = z.object({ number: z.number(), isActive: z.boolean() });
export type ActivatedVersion = z.infer<typeof activatedVersionSchema>;

// The answers of the agent routes of /v1 (the route table's OpenAPI document). A manifest is the
// loader's (src/agents/loader/manifest.ts), described here as an open object.
const manifestSchema = z.record(z.string(), z.unknown());

export const agentInfoSchema = z.object({
  ok: z.literal(true),
  slug: z.string(),
  version: z.number().int(),
  agent: manifestSchema,
});

export const visibleAgentsSchema = z.object({
  ok: z.literal(true),
  agents: z.array(
    z.object({ slug: z.string(), name: z.string(), description: z.string().nullable(), playgroundUrl: z.string() }),
  ),
});

export const uploadedVersionSchema = z.object({
  ok: z.literal(true),
  version: z.object({
    id: z.string(),
    agentId: z.string(),
    slug: z.string(),
    number: z.number().int(),
    status: z.enum(["ready", "invalid"]),
    isActive: z.boolean(),
    diagnostics: z.array(diagnosticSchema),
    manifest: manifestSchema.nullable(),
    fileCount: z.number().int(),
    sourceBytes: z.number().int(),
    createdAt: z.string(),
  }),
});
