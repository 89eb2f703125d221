// Inputs and outputs of the agents domain.
import { z } from "zod";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import type { AgentManifest } from "@/agents/loader/manifest";

export const agentSlugSchema = z.string().min(1).max(64);

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
