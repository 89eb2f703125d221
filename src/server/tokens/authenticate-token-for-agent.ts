// A bearer token and the agent its request addresses, looked up in ONE prepared statement: every
// API call with a token needs both, and two serial round trips were a fixed cost of every turn.
// The token is checked exactly as authenticateBearer checks it; the agent is only returned, so
// the route still answers 404/403 for it at the point it always did. With the web process's
// credential cache, a token and agent both found are kept until either changes (credential-cache.ts).
import type { PrismaClient } from "@prisma/client";
import type { AgentBySlug } from "@/server/agents/find-agent-by-slug";
import { bearerTokenHash, callerOfToken, tokenColumns, type TokenRow } from "@/server/auth/authenticate-bearer";
import type { CredentialCache } from "@/server/auth/credential-cache";
import type { Caller } from "@/server/auth/principal";
import { poolOf } from "@/server/db";

type Row = Partial<TokenRow> & {
  agentId: string | null;
  agentSlug: string;
  agentTeamId: string;
  agentName: string;
  agentDescription: string | null;
  agentActiveVersionId: string | null;
  agentAllowAnonymous: boolean;
};

export async function authenticateTokenForAgent(options: {
  db: PrismaClient;
  authorization: string;
  slug: string;
  cache?: CredentialCache;
  now?: Date;
}): Promise<{ caller: Caller; agent: AgentBySlug | undefined }> {
  const { db, authorization, slug, cache, now = new Date() } = options;
  const tokenHash = bearerTokenHash(authorization);
  const load = () => readTokenAndAgent(db, tokenHash, slug);
  const row = cache
    ? await cache.lookup(`${tokenHash}\n${slug}`, load, (found) => Boolean(found.id && found.agentId))
    : await load();
  const caller = callerOfToken({ db, token: row.id ? (row as TokenRow) : undefined, now });
  const agent: AgentBySlug | undefined = row.agentId
    ? {
        id: row.agentId,
        slug: row.agentSlug,
        teamId: row.agentTeamId,
        name: row.agentName,
        description: row.agentDescription,
        activeVersionId: row.agentActiveVersionId,
        allowAnonymous: row.agentAllowAnonymous,
      }
    : undefined;
  return { caller, agent };
}

async function readTokenAndAgent(db: PrismaClient, tokenHash: string, slug: string): Promise<Row> {
  // One row always (LEFT JOINs from a single row): nulls where there is no such token or agent.
  const { rows } = await poolOf(db).query<Row>({
    name: "agentfold-token-and-agent",
    text: `SELECT ${tokenColumns},
             a.id AS "agentId", a.slug AS "agentSlug", a."teamId" AS "agentTeamId", a.name AS "agentName",
             a.description AS "agentDescription", a."activeVersionId" AS "agentActiveVersionId", a."allowAnonymous" AS "agentAllowAnonymous"
           FROM (SELECT 1) AS one
           LEFT JOIN "ApiToken" t ON t."tokenHash" = $1
           LEFT JOIN "Agent" a ON a.slug = $2`,
    values: [tokenHash, slug],
  });
  return rows[0]!;
}
