// Socket Mode (docs/integrations.md, "Slack"): for a Slack channel whose agent has an app token
// (`<PREFIX>_SLACK_APP_TOKEN`), the worker opens Slack's WebSocket with the Slack SDK's own client
// instead of waiting for Events API requests — for instances Slack cannot reach. Events and
// button clicks arriving there are acknowledged at once and handled as the HTTP routes handle
// them (slack-events.ts, slack-actions.ts). Slack spreads an app's events over its open
// connections, so every worker may hold one; an event retried on another is taken once.
// Which agents need a connection is read again when a secret changes (the secrets' NOTIFY) and
// every `refreshMs` (a deploy may add or drop a Slack channel).
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { LogLevel, SocketModeClient } from "@slack/socket-mode";
import { secretsChannel } from "@/server/channels";
import { poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { listen } from "@/server/events/pg-listener";
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";
import { handleSlackAction, type SlackActionPayload } from "./slack-actions";
import { handleSlackEvent, type SlackEventCallback } from "./slack-events";
import { slackPackOf, slackSecrets, type SlackPack } from "./slack-pack";

export type SlackSockets = { refresh: () => Promise<void>; close: () => Promise<void> };

type Wanted = {
  agent: { id: string; slug: string; teamId: string };
  pack: SlackPack;
  appToken: string;
  botToken?: string;
};

export async function startSlackSockets(options: {
  db: PrismaClient;
  databaseUrl: string;
  runtime: DurableRuntime;
  secrets: PackSecretReader;
  slackApiUrl?: string;
  refreshMs?: number;
  log: (message: string) => void;
}): Promise<SlackSockets> {
  const { db, runtime, slackApiUrl, log, refreshMs = 30_000 } = options;
  const services = { db, runtime, ...(slackApiUrl ? { slackApiUrl } : {}) };
  const open = new Map<string, SocketModeClient>();
  let isClosed = false;
  let refreshing: Promise<void> = Promise.resolve();

  async function wanted(): Promise<Map<string, Wanted>> {
    const { rows } = await poolOf(db).query<{
      id: string;
      slug: string;
      teamId: string;
      channel: { name: string; config: unknown };
    }>({
      name: "agentfold-slack-socket-agents",
      text: `SELECT a.id, a.slug, a."teamId", c AS channel FROM "Agent" a JOIN "AgentVersion" v ON v.id = a."activeVersionId",
               jsonb_array_elements(CASE WHEN jsonb_typeof(v.manifest->'channels') = 'array' THEN v.manifest->'channels' ELSE '[]'::jsonb END) c
             WHERE c->'config'->>'pack' = 'slack'`,
    });
    const found = new Map<string, Wanted>();
    for (const row of rows) {
      const pack = slackPackOf(row.channel);
      const { appToken, botToken } = await slackSecrets(options.secrets, row.id, pack);
      if (!appToken) continue;
      // A new token is a new connection: the key changes with it.
      const tokens = crypto
        .createHash("sha256")
        .update(`${appToken}\n${botToken ?? ""}`)
        .digest("hex")
        .slice(0, 16);
      found.set(`${row.id}/${pack.channelId}/${tokens}`, {
        agent: { id: row.id, slug: row.slug, teamId: row.teamId },
        pack,
        appToken,
        ...(botToken ? { botToken } : {}),
      });
    }
    return found;
  }

  async function connect(key: string, target: Wanted): Promise<void> {
    const client = new SocketModeClient({
      appToken: target.appToken,
      logLevel: LogLevel.ERROR,
      clientOptions: { ...(slackApiUrl ? { slackApiUrl } : {}) },
    });
    const where = { agent: target.agent, pack: target.pack, ...(target.botToken ? { botToken: target.botToken } : {}) };
    client.on("slack_event", async ({ ack, type, body }: { ack: () => Promise<void>; type: string; body: unknown }) => {
      // Slack resends what is not acknowledged within 3 s; the work below may take longer.
      await ack();
      try {
        if (type === "events_api") await handleSlackEvent(services, where, body as SlackEventCallback);
        else if (type === "interactive") await handleSlackAction(services, where, body as SlackActionPayload);
      } catch (error) {
        log(`slack socket mode (${target.agent.slug}/${target.pack.channelId}): ${(error as Error).message}`);
      }
    });
    open.set(key, client);
    try {
      await client.start();
    } catch (error) {
      open.delete(key);
      await client.disconnect().catch(() => undefined);
      log(
        `slack socket mode (${target.agent.slug}/${target.pack.channelId}) could not connect: ${(error as Error).message}`,
      );
    }
  }

  async function refreshOnce(): Promise<void> {
    if (isClosed) return;
    const next = await wanted();
    for (const [key, client] of open)
      if (!next.has(key)) {
        open.delete(key);
        await client.disconnect().catch(() => undefined);
      }
    await Promise.all([...next].filter(([key]) => !open.has(key)).map(([key, target]) => connect(key, target)));
  }

  const refresh = () => {
    refreshing = refreshing
      .then(refreshOnce)
      .catch((error: unknown) => log(`slack socket mode: ${(error as Error).message}`));
    return refreshing;
  };

  const listener = await listen({
    databaseUrl: options.databaseUrl,
    name: "slack sockets",
    channels: { [secretsChannel.name]: () => void refresh() },
    onReconnect: () => void refresh(),
    log,
  });
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  await refresh();
  return {
    refresh,
    close: async () => {
      isClosed = true;
      clearInterval(timer);
      await listener.close();
      await refreshing;
      await Promise.all([...open.values()].map((client) => client.disconnect().catch(() => undefined)));
      open.clear();
    },
  };
}
