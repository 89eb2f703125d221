// Who is calling. Every request resolves to one principal, in the shape agent code sees
// (`{ kind, id, attributes? }`); sessions are owned by the principal that created them.
import type { Principal } from "@/agents/sdk/types";
import type { TokenAction } from "@/server/tokens/scopes";

export type { Principal };

/** A principal plus what it may do, for the route helper's checks. */
export type Caller = {
  principal: Principal;
  /** The one team of a token. */
  teamId?: string;
  /** The teams of a signed-in person (each with the role `can` checks). */
  teamIds?: string[];
  /** Whether the caller may take `action` on the agent `slug`. */
  can: (action: TokenAction, slug: string, agentTeamId: string) => boolean;
  /** Whether the caller may read the task sessions of the agent `slug` that others own (docs/dashboard.md,
   * "Task sessions"); absent means never. */
  canReadTaskSessions?: (slug: string, agentTeamId: string) => Promise<boolean>;
};

export function ownerOf(principal: Principal): { ownerKind: string; ownerId: string } {
  return { ownerKind: principal.kind, ownerId: principal.id };
}

export function isOwner(principal: Principal, session: { ownerKind: string; ownerId: string }): boolean {
  return session.ownerKind === principal.kind && session.ownerId === principal.id;
}
