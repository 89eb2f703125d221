// Inputs and outputs of the secrets domain. A value is never part of any output.
import { z } from "zod";
import { envName } from "@/agents/sdk/agent";
import { agentSlugSchema } from "@/server/agents/schema";

/** A value's largest size in UTF-8 bytes: room for a PEM key or a service-account JSON. */
export const maxSecretValueBytes = 64 * 1024;

export const secretNameSchema = z
  .string()
  .max(128, "must be at most 128 characters")
  .regex(envName, "must be an environment variable name: letters, digits and _, not starting with a digit");

// Messages never repeat the value: they may reach logs and the wire.
export const secretValueSchema = z
  .string()
  .min(1, "must not be empty")
  .refine((value) => !value.includes("\0"), "must not contain a NUL character (environment variables cannot hold one)")
  .refine(
    (value) => Buffer.byteLength(value, "utf8") <= maxSecretValueBytes,
    `must be at most ${maxSecretValueBytes / 1024} KiB`,
  );

export const secretSummarySchema = z.object({
  name: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  /** Whether the active version expects it (a secret may outlive the version that used it). */
  isDeclared: z.boolean(),
});

export const secretListSchema = z.object({
  secrets: z.array(secretSummarySchema),
  /** The names the active version expects; empty without an active version. */
  declared: z.array(z.string()),
  /** Those of them not set. */
  missing: z.array(z.string()),
});

export type SecretSummary = z.infer<typeof secretSummarySchema>;
export type SecretList = z.infer<typeof secretListSchema>;

export const setSecretResultSchema = z.object({ name: z.string(), updatedAt: z.string(), isNew: z.boolean() });
export type SetSecretResult = z.infer<typeof setSecretResultSchema>;

/** The agent whose secrets a procedure reads or changes, by slug within the caller's team. */
export const agentSecretsInputSchema = z.object({ slug: agentSlugSchema });
export const setSecretInputSchema = agentSecretsInputSchema.extend({
  name: secretNameSchema,
  value: secretValueSchema,
});
export const removeSecretInputSchema = agentSecretsInputSchema.extend({ name: secretNameSchema });

export const removeSecretResultSchema = z.object({ name: z.string() });

// The answers of /<slug>/v1/secrets… (the route table's OpenAPI document).
export const secretListAnswerSchema = secretListSchema.extend({ ok: z.literal(true) });
export const secretSetAnswerSchema = setSecretResultSchema.extend({ ok: z.literal(true) });
export const secretRemovedAnswerSchema = removeSecretResultSchema.extend({ ok: z.literal(true) });
