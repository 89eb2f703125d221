// A channel's state per session (table channel_states) and its conversation key
// (channel_conversations), as its `events` handlers read and change them (docs/agent-folders.md,
// "Channels").
import type { PrismaClient } from "@prisma/client";
import { pgTransaction, poolOf } from "@/server/db";
import { hashContinuationToken } from "@/server/sessions/continuation-token";

/** The saved state, or the channel's declared initial state for a session that has none yet. */
export async function readChannelState(db: PrismaClient, sessionId: string, initial: unknown): Promise<unknown> {
  const { rows } = await poolOf(db).query<{ state: unknown }>({
    name: "agentfold-channel-state",
    text: `SELECT state FROM channel_states WHERE "sessionId" = $1`,
    values: [sessionId],
  });
  return rows[0]?.state ?? initial ?? {};
}

export async function saveChannelState(db: PrismaClient, sessionId: string, state: unknown): Promise<void> {
  await poolOf(db).query({
    name: "agentfold-channel-state-save",
    text: `INSERT INTO channel_states ("sessionId", state, "updatedAt") VALUES ($1, $2::jsonb, now() AT TIME ZONE 'UTC')
           ON CONFLICT ("sessionId") DO UPDATE SET state = EXCLUDED.state, "updatedAt" = EXCLUDED."updatedAt"`,
    values: [sessionId, JSON.stringify(state)],
  });
}

/** setContinuationToken: the session answers to `key` on its channel from now on (and to its old
 * key no more). A key another session of the channel holds is taken over. */
export async function rekeyConversation(
  db: PrismaClient,
  where: { agentId: string; channelId: string; sessionId: string },
  key: string,
): Promise<void> {
  const { agentId, channelId, sessionId } = where;
  // Kept as a continuation token is: only its SHA-256.
  const keyHash = hashContinuationToken(key);
  await pgTransaction(db, async (client) => {
    await client.query(
      `DELETE FROM channel_conversations WHERE "sessionId" = $4 OR ("agentId" = $1 AND "channelId" = $2 AND "keyHash" = $3)`,
      [agentId, channelId, keyHash, sessionId],
    );
    await client.query(
      `INSERT INTO channel_conversations ("agentId", "channelId", "keyHash", "sessionId") VALUES ($1, $2, $3, $4)`,
      [agentId, channelId, keyHash, sessionId],
    );
  });
}
