// Direct tool calls (docs/api.md, "Sessions"): `POST /<slug>/v1/tools/:name` and the session-bound
// `POST /<slug>/v1/session/:id/tools/:name`, body `{ input }` (shapes ours, docs/api.md).
import { z } from "zod";
import type { Principal } from "@/agents/sdk/types";
import type { Outcome } from "@/server/errors";

export const directCallBodySchema = z.strictObject({ input: z.json().optional() });
export type DirectCallBody = z.infer<typeof directCallBodySchema>;

/** What the web asks the worker to run (checked already: the caller may call, and approve). */
export type DirectCallRequest = {
  agentId: string;
  versionId: string;
  toolName: string;
  input: unknown;
  caller: Principal;
  /** Whether the caller may approve: a needsApproval tool runs only then, approved by it. */
  mayApprove: boolean;
  sessionId?: string;
};

/** The worker's answer: a refusal is an AppError's wire form, rethrown as that error in the web. */
export type DirectCallOutcome = Outcome<{ output: unknown; isError: boolean; stubbed?: true }>;

/** A direct call's answer: a throw is `isError: true` with its message; a dry-run write is `stubbed`. */
export const directCallResultSchema = z.object({
  ok: z.literal(true),
  output: z.unknown(),
  isError: z.boolean(),
  stubbed: z.literal(true).optional(),
});
