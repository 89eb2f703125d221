// Inputs and outputs of the agents domain.
import { z } from "zod";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import type { AgentManifest } from "@/agents/loader/manifest";

// The slug rule of src/agents/loader/names.ts: every agent's slug matches it, so one that does
// not names no agent.
export const agentSlugPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const agentSlugSchema = z.string().regex(agentSlugPattern, "not an agent slug (letters, digits, '_' and '-', at most 64)");

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
