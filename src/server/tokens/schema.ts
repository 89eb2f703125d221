// Inputs and outputs of the tokens domain: a team's bearer tokens, never their secrets.
import { z } from "zod";
import { agentSlugSchema } from "@/server/agents/schema";
import { storableString } from "@/server/validation/schema";
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

/** GET /v1/whoami's answer. */
export const callerIdentitySchema = z.discriminatedUnion("kind", [
  z.object({
    ok: z.literal(true),
    kind: z.literal("token"),
    team: z.object({ slug: z.string(), name: z.string() }),
    token: z.object({
      name: z.string(),
      prefix: z.string(),
      actions: z.array(z.string()),
      /** Empty: every agent of the team. */
      agents: z.array(z.string()),
      expiresAt: z.string().nullable(),
      createdAt: z.string(),
      /** The email of who made it; null when made headless (the CLI on the server). */
      createdBy: z.string().nullable(),
    }),
  }),
  z.object({
    ok: z.literal(true),
    kind: z.literal("user"),
    user: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
    teams: z.array(z.object({ slug: z.string(), name: z.string(), role: z.string() })),
  }),
]);
export type CallerIdentity = z.infer<typeof callerIdentitySchema>;

/** POST /v1/tokens: a token made by a token, within its own scopes. */
export const createTokenBodySchema = z.strictObject({
  name: storableString().trim().min(1).max(80).default("cli"),
  actions: z.array(z.enum([...tokenActions, "*"])).min(1, "give at least one action"),
  /** Empty: every agent the creating token may reach. */
  agents: z.array(agentSlugSchema).max(100).default([]),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type CreateTokenBody = z.infer<typeof createTokenBodySchema>;

export const createdTokenAnswerSchema = z.object({
  ok: z.literal(true),
  token: z.string(),
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  actions: z.array(z.string()),
  agents: z.array(z.string()),
  expiresAt: z.string().nullable(),
});

/** POST /v1/tokens/revoke: the secret itself, as the CLI holds it. */
export const revokeTokenBodySchema = z.strictObject({ token: storableString().min(1).max(200) });
export const revokedTokenAnswerSchema = z.object({ ok: z.literal(true), revoked: z.literal(true) });
