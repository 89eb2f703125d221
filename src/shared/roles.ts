// What each team role may do, shared by server and dashboard. Roles are checked on the server, for
// every tRPC procedure and every /v1 route; the dashboard only hides what the server would refuse.
import type { Role } from "@prisma/client";
import type { TokenAction } from "@/server/tokens/scopes";

export const roles = ["viewer", "member", "admin", "owner"] as const satisfies readonly Role[];

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The least role that may take each /v1 action on the team's agents. */
const leastRoleFor: Record<TokenAction, Role> = {
  "agents:read": "viewer",
  "sessions:read": "viewer", // still only the caller's own sessions: ownership is checked per session
  "sessions:write": "member",
  "tools:call": "member",
  "approvals:write": "admin", // deciding for other people's sessions; owners of a session always may
  "agents:deploy": "admin",
  "channels:invoke": "member",
  "artifacts:read": "viewer",
  // Runs real turns (and the agent's tools), as a member's chat does.
  "evals:run": "member",
  // Anyone may make a token, only ever for what their own role allows (tokens/router.ts).
  "tokens:write": "viewer",
};

export function isAtLeast(role: Role, least: Role): boolean {
  return rank[role] >= rank[least];
}

export function roleGrants(role: Role, action: TokenAction): boolean {
  return isAtLeast(role, leastRoleFor[action]);
}

/** Who may hand out a role: admins up to admin, owners any role. */
export function canAssign(actor: Role, target: Role): boolean {
  return isAtLeast(actor, "admin") && (target !== "owner" || actor === "owner");
}
