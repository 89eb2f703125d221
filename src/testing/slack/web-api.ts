// The Web API methods the fake Slack answers, as Slack does: HTTP 200 with `{ ok: true, … }` or
// `{ ok: false, error }`, `missing_scope` when the token lacks the method's scope, and the token's
// scopes in `x-oauth-scopes` on every answer (the SDK reads them into `response_metadata.scopes`).
import { slackBotScopes } from "@/server/slack/app-manifest";

export type FakeSlackMessage = {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  /** How many chat.update calls changed it. */
  updates: number;
  /** Its text as first posted, then after each chat.update. */
  history: string[];
  /** Who wrote it: the bot user for posts, the given user for messages seeded with addMessage. */
  user: string;
};

export type FakeSlackUser = { id: string; name?: string; email?: string; isEmailConfirmed?: boolean };
export type FakeSlackReaction = { channel: string; ts: string; name: string };
export type FakeSlackEphemeral = {
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
  message_ts: string;
};

export type SlackState = {
  botToken: string;
  appToken: string;
  botUserId: string;
  botId: string;
  appId: string;
  teamId: string;
  scopes: string[];
  /** Every message in the workspace: the bot's posts and seeded ones, in ts order. */
  threadMessages: FakeSlackMessage[];
  /** The bot's posts only (the public `messages`). */
  posted: FakeSlackMessage[];
  ephemerals: FakeSlackEphemeral[];
  reactions: FakeSlackReaction[];
  users: Map<string, FakeSlackUser>;
  /** Errors to answer once, per method, before the method runs. */
  failures: Map<string, string[]>;
  nextTs: () => string;
  openConnection: () => string;
};

export type MethodAnswer = { body: Record<string, unknown>; headers: Record<string, string> };

type Call = { state: SlackState; args: Record<string, unknown> };
type Method = { scopes?: (args: Record<string, unknown>) => string[]; token: "bot" | "app"; run: (call: Call) => Body };
type Body = Record<string, unknown>;

/** The scopes the Slack pack asks for; the fake grants them unless told otherwise. */
export const fakeSlackDefaultScopes: string[] = slackBotScopes.map(({ scope }) => scope);

const fail = (error: string, extra: Body = {}): Body => ({ ok: false, error, ...extra });
const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

export function answerMethod(state: SlackState, method: string, args: Body, token: string | undefined): MethodAnswer {
  const headers: Record<string, string> = {};
  const definition = methods[method];
  if (!definition) return { body: fail("unknown_method"), headers };
  if (token === undefined) return { body: fail("not_authed"), headers };
  const isBot = token === state.botToken;
  const isApp = token === state.appToken;
  if (!isBot && !isApp) return { body: fail("invalid_auth"), headers };
  if ((definition.token === "bot") !== isBot) return { body: fail("not_allowed_token_type"), headers };
  if (isBot) headers["x-oauth-scopes"] = state.scopes.join(",");
  const queued = state.failures.get(method)?.shift();
  if (queued) return { body: fail(queued), headers };
  const needed = isBot ? (definition.scopes?.(args) ?? []) : [];
  // Slack lists alternatives as "a,b": any one of them will do.
  if (needed.length > 0 && !needed.some((scope) => state.scopes.includes(scope))) {
    return { body: fail("missing_scope", { needed: needed.join(","), provided: state.scopes.join(",") }), headers };
  }
  return { body: definition.run({ state, args }), headers };
}

function historyScope(channel: unknown): string[] {
  const id = typeof channel === "string" ? channel : "";
  if (id.startsWith("D")) return ["im:history"];
  if (id.startsWith("G")) return ["groups:history", "mpim:history"];
  return ["channels:history"];
}

function messageJson(state: SlackState, message: FakeSlackMessage): Body {
  const isBot = message.user === state.botUserId;
  return {
    type: "message",
    user: message.user,
    text: message.text,
    ts: message.ts,
    team: state.teamId,
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(isBot ? { bot_id: state.botId, app_id: state.appId } : {}),
    ...(message.updates > 0 ? { edited: { user: message.user, ts: state.nextTs() } } : {}),
  };
}

function findMessage(state: SlackState, channel: unknown, ts: unknown): FakeSlackMessage | undefined {
  return state.threadMessages.find((message) => message.channel === channel && message.ts === ts);
}

function blocksOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

const methods: Record<string, Method> = {
  "auth.test": {
    token: "bot",
    run: ({ state }) => ({
      ok: true,
      url: "https://fake-workspace.slack.com/",
      team: "Fake Workspace",
      user: "agentfold",
      team_id: state.teamId,
      user_id: state.botUserId,
      bot_id: state.botId,
      is_enterprise_install: false,
    }),
  },
  "chat.postMessage": {
    token: "bot",
    scopes: () => ["chat:write"],
    run: ({ state, args }) => {
      const channel = str(args.channel);
      if (!channel) return fail("channel_not_found");
      const text = typeof args.text === "string" ? args.text : "";
      const blocks = blocksOf(args.blocks);
      if (text === "" && !blocks?.length && args.attachments === undefined) return fail("no_text");
      const threadTs = str(args.thread_ts);
      const message: FakeSlackMessage = {
        channel,
        ts: state.nextTs(),
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text,
        ...(blocks ? { blocks } : {}),
        updates: 0,
        history: [text],
        user: state.botUserId,
      };
      state.threadMessages.push(message);
      state.posted.push(message);
      return { ok: true, channel, ts: message.ts, message: messageJson(state, message) };
    },
  },
  "chat.update": {
    token: "bot",
    scopes: () => ["chat:write"],
    run: ({ state, args }) => {
      const message = findMessage(state, args.channel, args.ts);
      if (!message) return fail("message_not_found");
      if (message.user !== state.botUserId) return fail("cant_update_message");
      const blocks = blocksOf(args.blocks);
      if (typeof args.text === "string") message.text = args.text;
      if (blocks) message.blocks = blocks;
      message.updates += 1;
      message.history.push(message.text);
      return {
        ok: true,
        channel: message.channel,
        ts: message.ts,
        text: message.text,
        message: messageJson(state, message),
      };
    },
  },
  "chat.delete": {
    token: "bot",
    scopes: () => ["chat:write"],
    run: ({ state, args }) => {
      const message = findMessage(state, args.channel, args.ts);
      if (!message) return fail("message_not_found");
      if (message.user !== state.botUserId) return fail("cant_delete_message");
      state.threadMessages.splice(state.threadMessages.indexOf(message), 1);
      state.posted.splice(state.posted.indexOf(message), 1);
      return { ok: true, channel: message.channel, ts: message.ts };
    },
  },
  "chat.postEphemeral": {
    token: "bot",
    scopes: () => ["chat:write"],
    run: ({ state, args }) => {
      const channel = str(args.channel);
      const user = str(args.user);
      if (!channel) return fail("channel_not_found");
      if (!user || !state.users.has(user)) return fail("user_not_found");
      const threadTs = str(args.thread_ts);
      const ephemeral = {
        channel,
        user,
        text: typeof args.text === "string" ? args.text : "",
        ...(threadTs ? { thread_ts: threadTs } : {}),
        message_ts: state.nextTs(),
      };
      state.ephemerals.push(ephemeral);
      return { ok: true, message_ts: ephemeral.message_ts };
    },
  },
  "reactions.add": {
    token: "bot",
    scopes: () => ["reactions:write"],
    run: ({ state, args }) => {
      const reaction = {
        channel: String(args.channel ?? ""),
        ts: String(args.timestamp ?? ""),
        name: String(args.name),
      };
      if (!str(args.name)) return fail("invalid_name");
      if (!reaction.channel || !reaction.ts) return fail("message_not_found");
      if (state.reactions.some((r) => sameReaction(r, reaction))) return fail("already_reacted");
      state.reactions.push(reaction);
      return { ok: true };
    },
  },
  "reactions.remove": {
    token: "bot",
    scopes: () => ["reactions:write"],
    run: ({ state, args }) => {
      const reaction = {
        channel: String(args.channel ?? ""),
        ts: String(args.timestamp ?? ""),
        name: String(args.name),
      };
      const index = state.reactions.findIndex((r) => sameReaction(r, reaction));
      if (index < 0) return fail("no_reaction");
      state.reactions.splice(index, 1);
      return { ok: true };
    },
  },
  "users.info": {
    token: "bot",
    scopes: () => ["users:read"],
    run: ({ state, args }) => {
      const id = str(args.user);
      if (id === state.botUserId) {
        return { ok: true, user: userJson(state, { id, name: "agentfold" }, { isBot: true }) };
      }
      const user = id ? state.users.get(id) : undefined;
      if (!user) return fail("user_not_found");
      return { ok: true, user: userJson(state, user, { isBot: false }) };
    },
  },
  "conversations.replies": {
    token: "bot",
    scopes: (args) => historyScope(args.channel),
    run: ({ state, args }) => {
      const parent = str(args.ts);
      if (!parent) return fail("thread_not_found");
      const thread = state.threadMessages.filter(
        (message) => message.channel === args.channel && (message.ts === parent || message.thread_ts === parent),
      );
      if (thread.length === 0) return fail("thread_not_found");
      const offset = Number(str(args.cursor) ?? 0);
      const limit = Math.max(1, Math.min(Number(args.limit ?? 1000) || 1000, 1000));
      const page = thread.slice(offset, offset + limit);
      const hasMore = offset + limit < thread.length;
      return {
        ok: true,
        messages: page.map((message) => messageJson(state, message)),
        has_more: hasMore,
        response_metadata: { next_cursor: hasMore ? String(offset + limit) : "" },
      };
    },
  },
  "assistant.threads.setStatus": {
    token: "bot",
    // Slack accepts either while it retires assistant:write for this method.
    scopes: () => ["assistant:write", "chat:write"],
    run: ({ args }) => {
      if (!str(args.channel_id)) return fail("channel_not_found");
      if (!str(args.thread_ts)) return fail("invalid_thread_ts");
      if (typeof args.status !== "string") return fail("invalid_arguments");
      return { ok: true };
    },
  },
  "bots.info": {
    token: "bot",
    scopes: () => ["users:read"],
    run: ({ state, args }) => {
      const bot = str(args.bot) ?? state.botId;
      if (bot !== state.botId) return fail("bot_not_found");
      return {
        ok: true,
        bot: { id: state.botId, deleted: false, name: "agentfold", app_id: state.appId, user_id: state.botUserId },
      };
    },
  },
  "apps.connections.open": {
    token: "app",
    run: ({ state }) => ({ ok: true, url: state.openConnection() }),
  },
};

function sameReaction(a: FakeSlackReaction, b: FakeSlackReaction): boolean {
  return a.channel === b.channel && a.ts === b.ts && a.name === b.name;
}

function userJson(state: SlackState, user: FakeSlackUser, options: { isBot: boolean }): Body {
  const name = user.name ?? user.id.toLowerCase();
  // As Slack does, the email is there only for a token with users:read.email.
  const canSeeEmail = state.scopes.includes("users:read.email") && user.email !== undefined;
  return {
    id: user.id,
    team_id: state.teamId,
    name,
    real_name: name,
    deleted: false,
    is_bot: options.isBot,
    is_email_confirmed: user.isEmailConfirmed ?? user.email !== undefined,
    profile: { real_name: name, display_name: name, ...(canSeeEmail ? { email: user.email } : {}) },
  };
}
