// tRPC: a team's agents, their versions and surface, and switching the active version. Uploads
// are a plain HTTP route (POST /v1/agents/:slug/versions): archives are bytes, not JSON.
import { findTeamOfUser, findTeamsOfUser } from "@/server/teams/find-teams-of-user";
import { authedProcedure, publicProcedure, teamProcedure, router } from "@/server/trpc/init";
import { durableRuntime } from "@/server/http/platform";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { activateAgentVersion } from "./activate-agent-version";
import { findTeamAgents } from "./find-team-agents";
import { getTeamAgent } from "./get-team-agent";
import {
  activatedVersionSchema,
  activateVersionInputSchema,
  agentDetailSchema,
  agentInputSchema,
  agentLocationSchema,
  myAgentsSchema,
  teamAgentsSchema,
  type ActivatedVersion,
  type AgentLocation,
  type MyAgent,
} from "./schema";

export const agentsRouter = router({
  /** The caller's team and role for an agent, or null when it is not in any of their teams. */
  // Public so a playground opened with a token only (no sign-in) gets null, not an error.
  locate: publicProcedure
    .input(agentInputSchema)
    .output(agentLocationSchema)
    .query(async ({ ctx, input }): Promise<AgentLocation> => {
      if (!ctx.userId) return null;
      const [agent, user] = await Promise.all([
        ctx.db.agent.findUnique({ where: { slug: input.slug }, select: { teamId: true } }),
        ctx.db.user.findUnique({ where: { id: ctx.userId }, select: { id: true, isInstanceAdmin: true } }),
      ]);
      const team = agent && user && (await findTeamOfUser({ db: ctx.db, user, team: { id: agent.teamId } }));
      return team ? { teamSlug: team.slug, teamName: team.name, role: team.role } : null;
    }),
  list: teamProcedure("viewer")
    .output(teamAgentsSchema)
    .query(({ ctx }) => findTeamAgents({ db: ctx.db, teamIds: [ctx.team.id] })),
  /** Every agent of every team of the signed-in person, with its team, in one query (home page). */
  mine: authedProcedure.output(myAgentsSchema).query(async ({ ctx }): Promise<MyAgent[]> => {
    const teams = await findTeamsOfUser({ db: ctx.db, user: ctx.user });
    const byId = new Map(teams.map((team) => [team.id, { slug: team.slug, name: team.name }]));
    const agents = await findTeamAgents({ db: ctx.db, teamIds: [...byId.keys()] });
    // Grouped by team, in the order of the person's teams.
    const order = new Map(teams.map((team, i) => [team.id, i]));
    return agents
      .map((agent) => ({ ...agent, team: byId.get(agent.teamId)! }))
      .sort((a, b) => order.get(a.teamId)! - order.get(b.teamId)! || a.slug.localeCompare(b.slug));
  }),
  get: teamProcedure("viewer")
    .input(agentInputSchema)
    .output(agentDetailSchema)
    .query(({ ctx, input }) => getTeamAgent({ db: ctx.db, teamId: ctx.team.id, slug: input.slug })),
  activate: teamProcedure("admin")
    .input(activateVersionInputSchema)
    .output(activatedVersionSchema)
    .mutation(async ({ ctx, input }): Promise<ActivatedVersion> => {
      const version = await activateAgentVersion({
        db: ctx.db,
        teamId: ctx.team.id,
        slug: input.slug,
        versionNumber: input.number,
      });
      // The new version's schedules replace the old ones at once.
      await startSchedulers({ db: ctx.db, runtime: durableRuntime(), agentIds: [version.agentId] });
      return { number: version.number, isActive: version.isActive };
    }),
});
