// Inputs and outputs of the host-state procedures: the dashboard's read-only view of an agent's
// memory journal and deployment files.
import { z } from "zod";
import { agentSlugSchema } from "@/server/agents/schema";
import { maxPathBytes } from "./file-paths";

export const maxMemoryEntries = 100;
/** Files one listing shows, the most recently changed first. */
export const listedAgentFiles = 200;
/** The bytes of a file the dashboard shows; the rest is cut. */
export const shownFileBytes = 64 * 1024;

export const memoryInputSchema = z.object({
  slug: agentSlugSchema,
  limit: z.number().int().min(1).max(maxMemoryEntries).default(20),
});
export const agentFilesInputSchema = z.object({ slug: agentSlugSchema });
export const agentFileInputSchema = z.object({ slug: agentSlugSchema, path: z.string().min(1).max(maxPathBytes) });

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
});

/** One line of memory/journal.jsonl, as memoryHook() writes it (src/agents/sdk/memory.ts). */
export const memoryEntrySchema = z.object({
  at: z.string(),
  sessionId: z.string(),
  channelId: z.string(),
  status: z.enum(["completed", "failed"]),
  title: z.string().nullable(),
  userMessage: z.string().nullable(),
  result: z.json().nullable(),
  usage: usageSchema.nullable(),
});
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

export const memoryJournalSchema = z.object({
  /** Newest first. */
  entries: z.array(memoryEntrySchema),
  /** Lines passed over on the way to these entries that are not journal entries. */
  skipped: z.number().int(),
  /** Whether the journal file exists: without it, memory is off or no turn has ended yet. */
  hasJournal: z.boolean(),
});
export type MemoryJournal = z.infer<typeof memoryJournalSchema>;

export const agentFileSummarySchema = z.object({ path: z.string(), size: z.number().int(), updatedAt: z.string() });
export const agentFileListSchema = z.object({
  files: z.array(agentFileSummarySchema),
  /** More files exist than the listing shows. */
  isTruncated: z.boolean(),
});
export type AgentFileList = z.infer<typeof agentFileListSchema>;

export const agentFileSchema = agentFileSummarySchema.extend({
  /** The first `shownFileBytes` as UTF-8 text; null for a binary file. */
  text: z.string().nullable(),
  isBinary: z.boolean(),
  /** The file is longer than the text shown. */
  isTruncated: z.boolean(),
});
export type AgentFile = z.infer<typeof agentFileSchema>;
