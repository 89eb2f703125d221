// ctx.host.slack.getClient() for agent code (docs/integrations.md, "Slack from tools"): each Web
// API method it calls arrives here as one host call and is made by the platform with the agent's
// bot token — the token stays out of the sandbox. The token is that of the session's Slack
// channel, else of the agent's first Slack channel, else `SLACK_BOT_TOKEN` (an agent may post to
// Slack without listening to it).
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { PackHostServices } from "@/server/agent-channels/pack-types";
import { AppError } from "@/server/errors";
import type { HostContext } from "@/server/turns/host-context";
import { parseInput } from "@/server/validation/parse-input";
import { slackClient, slackPackOf, slackSecrets } from "./slack-pack";

const callSchema = z.object({
  method: z.string().regex(/^[a-z]+(?:\.[a-zA-Z]+)+$/, "a Web API method like chat.postMessage"),
  args: z.record(z.string(), z.json()).default({}),
});

// Methods that would hand out or end the credential itself, or manage the app: not agent code's.
const withheld = /^(?:oauth|openid|apps|admin)\.|^auth\.revoke$/;

export async function slackHostCall(
  db: PrismaClient,
  packs: PackHostServices | undefined,
  host: HostContext,
  params: unknown,
): Promise<unknown> {
  if (!packs) throw new AppError("unavailable", "ctx.host.slack is not available in this process");
  const { method, args } = parseInput(callSchema, params, "slack");
  if (withheld.test(method)) throw new AppError("forbidden", `ctx.host.slack: ${method} is not for agent code`);
  const version = await db.agentVersion.findUnique({ where: { id: host.versionId }, select: { manifest: true } });
  const channels = ((version?.manifest as AgentManifest | null)?.channels ?? []).filter(
    (channel) => (channel.config as { pack?: string }).pack === "slack",
  );
  const session = host.sessionId
    ? await db.session.findUnique({ where: { id: host.sessionId }, select: { channelId: true } })
    : null;
  const channel = channels.find((candidate) => candidate.name === session?.channelId) ?? channels[0];
  const pack = slackPackOf(channel ?? { name: "slack", config: {} });
  const { botToken } = await slackSecrets(packs.secrets, host.agentId, pack);
  if (!botToken) throw new AppError("unavailable", `ctx.host.slack: set the agent's secret ${pack.names.botToken}`);
  try {
    const answer = await slackClient(botToken, packs.slackApiUrl).apiCall(method, args);
    return JSON.parse(JSON.stringify(answer));
  } catch (error) {
    // The SDK's error carries Slack's answer (`data.error`, e.g. channel_not_found): that is what
    // agent code can act on, and it holds no token.
    const data = (error as { data?: { error?: string } }).data;
    throw new AppError("bad_request", `ctx.host.slack ${method}: ${data?.error ?? (error as Error).message}`);
  }
}
