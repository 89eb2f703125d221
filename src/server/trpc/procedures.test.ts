// Every dashboard procedure declares its input and output with schemas from its domain's
// schema.ts (house style, rule 7). tRPC parses outputs at run time, and a z.object drops keys it
// does not name, so the type checks below hold each service's return type equal to its schema:
// `npm run typecheck` fails when one drifts from the other.
import fs from "node:fs";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { findTeamAgents } from "@/server/agents/find-team-agents";
import type { getTeamAgent } from "@/server/agents/get-team-agent";
import type { agentDetailSchema, teamAgentsSchema } from "@/server/agents/schema";
import type { findTeamApprovals } from "@/server/approvals/find-team-approvals";
import type { approvalInboxSchema } from "@/server/approvals/schema";
import type { signedUpSchema } from "@/server/auth/schema";
import type { signUp } from "@/server/auth/sign-up";
import type { listSecrets } from "@/server/secrets/list-secrets";
import type { removeSecret } from "@/server/secrets/remove-secret";
import type { removeSecretResultSchema, secretListSchema, setSecretResultSchema } from "@/server/secrets/schema";
import type { setSecret } from "@/server/secrets/set-secret";
import type { checkSlackSetup } from "@/server/slack/check-slack-setup";
import type { slackDoctorResultSchema } from "@/server/slack/schema";
import type { findRecentSessions } from "@/server/sessions/find-recent-sessions";
import type { recentSessionsSchema } from "@/server/sessions/schema";
import type { claimInvite } from "@/server/teams/claim-invite";
import type { createTeam } from "@/server/teams/create-team";
import type { findTeamsOfUser } from "@/server/teams/find-teams-of-user";
import type { findMembers, removeMember, revokeInvite, setMemberRole } from "@/server/teams/members";
import type { acceptedInviteSchema, createdTeamSchema, membersSchema, teamsOfUserSchema } from "@/server/teams/schema";
import { teamInputSchema } from "@/server/teams/schema";
import type { createToken } from "@/server/tokens/create-token";
import type { findTokens } from "@/server/tokens/find-tokens";
import type { revokeToken } from "@/server/tokens/revoke-token";
import type { createdTokenSchema, tokenListSchema } from "@/server/tokens/schema";
import { appRouter } from "./root";

type Def = { inputs: unknown[]; output?: unknown };

/** Procedures that read nothing but who is asking. */
const withoutInput = new Set(["auth.status", "teams.mine", "teams.me", "agents.mine"]);

const record = appRouter._def.procedures as unknown as Record<string, { _def: Def }>;
const procedures = Object.entries(record).map(([name, procedure]) => ({ name, def: procedure._def }));

async function schemaExports(domain: string): Promise<Set<unknown>> {
  const file = path.resolve(import.meta.dirname, "..", domain, "schema.ts");
  if (!fs.existsSync(file)) return new Set();
  return new Set(Object.values((await import(file)) as Record<string, unknown>));
}

describe("dashboard procedures", () => {
  it("finds the routers' procedures", () => {
    // A walk over an empty record would pass every check below.
    const names = procedures.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["agents.get", "teams.invite", "tokens.create", "secrets.set"]));
    expect(procedures.length).toBeGreaterThanOrEqual(25);
  });

  it.each(procedures)("$name has an output schema from its domain's schema.ts", async ({ name, def }) => {
    expect(def.output, `${name} has no .output()`).toBeDefined();
    const exported = await schemaExports(name.split(".")[0]!);
    expect(exported.has(def.output), `${name}'s output is not exported by its schema.ts`).toBe(true);
  });

  it.each(procedures)("$name takes its input through schemas from its domain's schema.ts", async ({ name, def }) => {
    if (withoutInput.has(name)) {
      expect(def.inputs).toEqual([]);
      return;
    }
    expect(def.inputs.length, `${name} has no .input()`).toBeGreaterThan(0);
    const exported = await schemaExports(name.split(".")[0]!);
    for (const input of def.inputs) {
      expect(input === teamInputSchema || exported.has(input), `${name}: an input not from schema.ts`).toBe(true);
    }
  });

  it("names only existing procedures as taking no input", () => {
    for (const name of withoutInput) expect(procedures.map((p) => p.name)).toContain(name);
  });
});

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

// Compile-time only: each service returns exactly what its procedure's output schema describes
// (procedures that shape their result in the router annotate their resolver's return type instead).
it("matches each service's return type to its output schema", () => {
  expectTypeOf<Returned<typeof findTeamAgents>>().toEqualTypeOf<z.infer<typeof teamAgentsSchema>>();
  expectTypeOf<Returned<typeof getTeamAgent>>().toEqualTypeOf<z.infer<typeof agentDetailSchema>>();
  expectTypeOf<Returned<typeof findTeamApprovals>>().toEqualTypeOf<z.infer<typeof approvalInboxSchema>>();
  expectTypeOf<z.infer<typeof approvalInboxSchema>["pending"][number]["args"]>().toEqualTypeOf<Prisma.JsonValue>();
  expectTypeOf<Returned<typeof signUp>>().toEqualTypeOf<z.infer<typeof signedUpSchema>>();
  expectTypeOf<Returned<typeof listSecrets>>().toEqualTypeOf<z.infer<typeof secretListSchema>>();
  expectTypeOf<Returned<typeof setSecret>>().toEqualTypeOf<z.infer<typeof setSecretResultSchema>>();
  expectTypeOf<Returned<typeof removeSecret>>().toEqualTypeOf<z.infer<typeof removeSecretResultSchema>>();
  expectTypeOf<Returned<typeof checkSlackSetup>>().toEqualTypeOf<z.infer<typeof slackDoctorResultSchema>>();
  expectTypeOf<Returned<typeof findRecentSessions>>().toEqualTypeOf<z.infer<typeof recentSessionsSchema>>();
  expectTypeOf<Returned<typeof findTeamsOfUser>>().toEqualTypeOf<z.infer<typeof teamsOfUserSchema>>();
  expectTypeOf<Returned<typeof createTeam>>().toEqualTypeOf<z.infer<typeof createdTeamSchema>>();
  expectTypeOf<Returned<typeof findMembers>>().toEqualTypeOf<z.infer<typeof membersSchema>>();
  expectTypeOf<Returned<typeof claimInvite>>().toEqualTypeOf<z.infer<typeof acceptedInviteSchema>>();
  expectTypeOf<Returned<typeof revokeInvite>>().toEqualTypeOf<void>();
  expectTypeOf<Returned<typeof setMemberRole>>().toEqualTypeOf<void>();
  expectTypeOf<Returned<typeof removeMember>>().toEqualTypeOf<void>();
  expectTypeOf<Returned<typeof findTokens>>().toEqualTypeOf<z.infer<typeof tokenListSchema>>();
  // The router adds expiresAt to what createToken returns.
  expectTypeOf<Returned<typeof createToken>>().toEqualTypeOf<Omit<z.infer<typeof createdTokenSchema>, "expiresAt">>();
  expectTypeOf<Returned<typeof revokeToken>>().toEqualTypeOf<void>();
});
