// Inputs and outputs of the tokens domain: a team's bearer tokens, never their secrets.
import { z } from "zod";
import { tokenActions } from "./scopes";

/** A token as lists show it: `prefix` is its first characters, to recognise it by. */
export const tokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  /** Empty: every agent of the team. */
  agentSlugs: z.array(z.string()),
  // Stored rows may hold "*" or actions this version no longer knows: listed as they are.
  actions: z.array(z.string()),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
  /** The creator's name or email (null when they have neither); "the CLI" when nobody is recorded. */
  createdBy: z.string().nullable(),
});
export const tokenListSchema = z.array(tokenSummarySchema);

export const createTokenInputSchema = z.object({
  name: z.string().trim().min(1, "give the token a name").max(80),
  actions: z.array(z.enum(tokenActions)).min(1, "pick at least one scope"),
  agentSlugs: z.array(z.string()).default([]),
  expiresInDays: z.number().int().min(1).max(365).nullable(),
});

/** `token` is the secret, shown this once and never stored. */
export const createdTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  prefix: z.string(),
  expiresAt: z.date().nullable(),
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;

export const revokeTokenInputSchema = z.object({ tokenId: z.string() });
/** Changes that answer nothing but success. */
export const noResultSchema = z.void();
