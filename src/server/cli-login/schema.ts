// Inputs and outputs of `agentfold login`'s device-style flow (docs/cli.md, "Instances"): the CLI
// starts a login and polls it with its secret; a signed-in member approves its code on /cli-login.
import { z } from "zod";
import { storableString } from "@/server/validation/schema";

/** How long a started login waits for its approval. */
export const loginTtlMs = 10 * 60_000;
/** How long an approved login waits for the CLI to collect its token. */
export const collectWindowMs = 2 * 60_000;
/** How long the minted token lives. */
export const loginTokenDays = 90;
/** How often the CLI is asked to poll. */
export const pollIntervalSeconds = 2;

/** `ABCD-EFGH`; typed codes are read ignoring case, spaces and the dash. */
export const loginCodeSchema = z
  .string()
  .max(32)
  .transform((value) => value.toUpperCase().replace(/[^A-Z]/g, ""))
  .pipe(z.string().regex(/^[A-Z]{8}$/, "a login code is 8 letters, as ABCD-EFGH"))
  .transform((letters) => `${letters.slice(0, 4)}-${letters.slice(4)}`);

export const startCliLoginBodySchema = z.strictObject({
  /** The machine's name, shown to the approver and in the token's name ("cli on <hostname>"). */
  hostname: storableString().trim().min(1).max(100),
});

export const startedCliLoginSchema = z.object({
  ok: z.literal(true),
  /** The secret the CLI polls with; never shown to a person. */
  requestId: z.string(),
  code: z.string(),
  expiresAt: z.string(),
  intervalSeconds: z.number(),
});

export const collectCliLoginBodySchema = z.strictObject({
  requestId: z.string().regex(/^clr_[A-Za-z0-9_-]{43}$/, "not a login request id"),
});

export const collectedCliLoginSchema = z.discriminatedUnion("status", [
  z.object({ ok: z.literal(true), status: z.enum(["pending", "denied", "expired"]) }),
  z.object({
    ok: z.literal(true),
    status: z.literal("approved"),
    /** The bearer token, answered this once. */
    token: z.string(),
    team: z.object({ slug: z.string(), name: z.string() }),
    actions: z.array(z.string()),
    expiresAt: z.string(),
  }),
]);
export type CollectedCliLogin = z.infer<typeof collectedCliLoginSchema>;

export const cliLoginCodeInputSchema = z.object({ code: loginCodeSchema });
export const approveCliLoginInputSchema = z.object({ code: loginCodeSchema, teamSlug: z.string().min(1) });

export const cliLoginStatusSchema = z.enum(["pending", "approved", "denied", "expired", "collected"]);

/** What the approval page shows of a login: never its secret. */
export const cliLoginSummarySchema = z.object({
  code: z.string(),
  hostname: z.string(),
  status: cliLoginStatusSchema,
  createdAt: z.date(),
  expiresAt: z.date(),
});

export const approvedCliLoginSchema = z.object({
  code: z.string(),
  team: z.object({ slug: z.string(), name: z.string() }),
  actions: z.array(z.string()),
});
export const deniedCliLoginSchema = z.object({ code: z.string() });
