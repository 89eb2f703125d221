// A click on a parked call's Approve or Deny button in Slack (the pack's `toolApprovals: true`,
// docs/integrations.md): the decision is the clicker's, whoever they are in the workspace (Slack's
// signature vouches for the workspace), recorded as `approvedBy` with their Slack ids — and as the
// team member with the same verified email, where one exists.
import type { Principal } from "@/agents/sdk/types";
import type { AgentBySlug } from "@/server/agents/find-agent-by-slug";
import type { PackServices } from "@/server/agent-channels/pack-types";
import { decideApproval } from "@/server/approvals/decide-approval";
import { AppError } from "@/server/errors";
import { slackClient, slackUserPrincipal, type SlackPack } from "./slack-pack";

export type SlackActionPayload = {
  type: string;
  user?: { id?: string; team_id?: string };
  team?: { id?: string };
  actions?: { action_id?: string; value?: string }[];
};

/** The buttons' action ids; their value is `{ sessionId, callId }` (slack-approval-messages.ts posts them). */
export const approveActionId = "agentfold.approve";
export const denyActionId = "agentfold.deny";

export async function handleSlackAction(
  services: Pick<PackServices, "db" | "runtime" | "slackApiUrl">,
  where: { agent: Pick<AgentBySlug, "id" | "slug" | "teamId">; pack: SlackPack; botToken?: string },
  payload: SlackActionPayload,
): Promise<void> {
  if (payload.type !== "block_actions") return;
  const action = payload.actions?.find((a) => a.action_id === approveActionId || a.action_id === denyActionId);
  const userId = payload.user?.id;
  const teamId = payload.user?.team_id ?? payload.team?.id;
  if (!action?.value || !userId || !teamId) return;
  if (!where.pack.config.toolApprovals)
    throw new AppError("forbidden", "this Slack channel does not take approvals (set toolApprovals: true)");
  const { sessionId, callId } = JSON.parse(action.value) as { sessionId?: string; callId?: string };
  if (!sessionId || !callId) throw new AppError("invalid_input", "the button names no parked call");
  const session = await services.db.session.findFirst({
    where: { id: sessionId, agentId: where.agent.id, channelId: where.pack.channelId },
    select: { id: true },
  });
  if (!session) throw new AppError("not_found", `no session ${sessionId} on this Slack channel`);
  const principal = await approverOf(services, where, teamId, userId);
  await decideApproval({
    db: services.db,
    runtime: services.runtime,
    agent: where.agent,
    sessionId,
    callId,
    caller: { principal, can: () => true },
    body: { decision: action.action_id === approveActionId ? "approve" : "deny" },
  }).catch((error: unknown) => {
    // A second click (or one on a call that expired) changes nothing; the message says how it ended.
    if (error instanceof AppError && error.code === "already_resolved") return;
    throw error;
  });
}

/** The clicker: the team member with their verified email, else the Slack user as such. */
async function approverOf(
  services: Pick<PackServices, "db" | "slackApiUrl">,
  where: { agent: Pick<AgentBySlug, "teamId">; botToken?: string },
  teamId: string,
  userId: string,
): Promise<Principal> {
  const slack = slackUserPrincipal(teamId, userId);
  if (!where.botToken) return slack;
  const info = await slackClient(where.botToken, services.slackApiUrl)
    .users.info({ user: userId })
    .catch(() => undefined);
  const email = info?.user?.profile?.email;
  // Slack vouches for an address only once its owner confirmed it.
  if (!email || info?.user?.is_email_confirmed !== true) return slack;
  const member = await services.db.user.findFirst({
    where: { email: { equals: email, mode: "insensitive" }, memberships: { some: { teamId: where.agent.teamId } } },
    select: { id: true },
  });
  if (!member) return slack;
  return { kind: "user", id: member.id, attributes: { ...slack.attributes, email } };
}
