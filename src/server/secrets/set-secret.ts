// Sets an agent's secret, or rotates it: encrypted with a fresh IV, written and announced in one
// statement. Sandboxes already running keep the value they started with until their readers hear
// the notice (src/server/secrets/create-secret-reader.ts).
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { assertSecretInput } from "./assert-secret-input";
import type { SetSecretResult } from "./schema";
import { encryptSecret } from "./secret-cipher";
import { secretsChannel } from "@/server/channels";

export async function setSecret(options: {
  db: PrismaClient;
  key: Buffer;
  agentId: string;
  name: string;
  value: string;
  updatedBy?: string;
  now?: Date;
}): Promise<SetSecretResult> {
  const { db, key, agentId, name, value, updatedBy = null, now = new Date() } = options;
  assertSecretInput({ name, value });
  const { iv, tag, ciphertext } = encryptSecret({ key, agentId, name, value });
  try {
    // The NOTIFY is part of the statement: Postgres sends it when the write commits.
    const { rows } = await poolOf(db).query<{ isNew: boolean }>({
      text: `WITH written AS (
               INSERT INTO agent_secrets ("agentId", name, iv, tag, ciphertext, "updatedAt", "updatedBy")
               VALUES ($1, $2, $3, $4, $5, $6::timestamptz AT TIME ZONE 'UTC', $7)
               ON CONFLICT ("agentId", name) DO UPDATE SET iv = EXCLUDED.iv, tag = EXCLUDED.tag, ciphertext = EXCLUDED.ciphertext,
                 "updatedAt" = EXCLUDED."updatedAt", "updatedBy" = EXCLUDED."updatedBy"
               RETURNING (xmax = 0) AS "isNew"
             )
             SELECT "isNew", pg_notify($8, $1) FROM written`,
      values: [agentId, name, iv, tag, ciphertext, now.toISOString(), updatedBy, secretsChannel.name],
    });
    return { name, updatedAt: now.toISOString(), isNew: rows[0]!.isNew };
  } catch (error) {
    // The agent was deleted meanwhile (its foreign key).
    if ((error as { code?: string }).code === "23503") throw new AppError("not_found", "no such agent");
    throw error;
  }
}
