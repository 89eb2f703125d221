// Peer agents (docs/agent-folders.md, "Peer agents"): a connection `{ agent: "<slug>" }` gives
// the model `<connection>__ask` and `__check` on another agent of the same team, run here in the
// worker through askAgent (no network hop), with the asking session's principal as the caller.
// Each session a peer ask starts records where it was asked from (session_peer_asks), so a chain
// of asks that comes back to an agent already in it (A → B → A) is refused before it is sent.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import { poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import type { PeerCaller, TurnConnections } from "@/server/turns/engine";
import { askAgent } from "./ask-agent";
import { checkAgentSession } from "./ask-agent-check";
import { askInputSchema, checkInputSchema } from "./ask-agent-schema";

/** How many asks deep a chain may go, cycle or not. */
export const maxPeerDepth = 8;

export function peerAgents(deps: {
  db: PrismaClient;
  runtime?: DurableRuntime;
}): NonNullable<TurnConnections["peers"]> {
  const { db } = deps;
  return {
    async ask(caller, slug, input, signal) {
      if (!deps.runtime) throw new Error("peer agents are not available on this worker");
      const { message, sessionId } = askInputSchema.parse(input);
      const peer = await findPeer(db, caller, slug);
      await refuseCycle(db, caller, peer);
      return askAgent(
        { db, runtime: deps.runtime },
        {
          agent: peer,
          principal: caller.setup.session.auth as Principal,
          message,
          ...(sessionId ? { sessionId } : {}),
          signal,
          askedFrom: { sessionId: caller.setup.session.id, agentId: caller.setup.session.agentId },
        },
      );
    },
    async check(caller, slug, input) {
      const { sessionId } = checkInputSchema.parse(input);
      const peer = await findPeer(db, caller, slug);
      return checkAgentSession({ db }, { agent: peer, principal: caller.setup.session.auth as Principal, sessionId });
    },
  };
}

/** The agent named `slug` in the caller's team. */
async function findPeer(db: PrismaClient, caller: PeerCaller, slug: string) {
  const own = await db.agent.findUnique({ where: { id: caller.setup.session.agentId }, select: { teamId: true } });
  const peer = await db.agent.findUnique({
    where: { slug },
    select: { id: true, slug: true, teamId: true, activeVersionId: true },
  });
  // Another team's agent is answered as one that does not exist.
  if (!own || !peer || peer.teamId !== own.teamId) throw new Error(`there is no agent ${slug} in this team`);
  return peer;
}

/** The agents the asking session's chain of asks went through, nearest first, and the caller's own. */
async function chainOf(db: PrismaClient, caller: PeerCaller): Promise<{ agentId: string; slug: string }[]> {
  const { rows } = await poolOf(db).query<{ agentId: string; slug: string }>({
    name: "agentfold-peer-chain",
    text: `WITH RECURSIVE chain AS (
             SELECT "fromSessionId", "fromAgentId", 1 AS depth FROM session_peer_asks WHERE "sessionId" = $1
             UNION ALL
             SELECT p."fromSessionId", p."fromAgentId", chain.depth + 1 FROM session_peer_asks p
             JOIN chain ON p."sessionId" = chain."fromSessionId" WHERE chain.depth < $2)
           SELECT a.id AS "agentId", a.slug FROM chain JOIN "Agent" a ON a.id = chain."fromAgentId" ORDER BY chain.depth`,
    values: [caller.setup.session.id, maxPeerDepth + 1],
  });
  const own = await db.agent.findUnique({ where: { id: caller.setup.session.agentId }, select: { slug: true } });
  return [{ agentId: caller.setup.session.agentId, slug: own?.slug ?? caller.setup.session.agentId }, ...rows];
}

async function refuseCycle(db: PrismaClient, caller: PeerCaller, peer: { id: string; slug: string }): Promise<void> {
  const chain = await chainOf(db, caller);
  const path = [...chain.map((link) => link.slug).reverse(), peer.slug].join(" → ");
  if (chain.some((link) => link.agentId === peer.id))
    throw new Error(`refused: asking ${peer.slug} would close a cycle (${path})`);
  if (chain.length > maxPeerDepth) throw new Error(`refused: peer asks go at most ${maxPeerDepth} deep (${path})`);
}
