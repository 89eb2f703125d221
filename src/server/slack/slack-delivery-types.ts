// The seam of a Slack pack's delivery (slack-delivery.ts): what it remembers of a session between
// events, and what each of its steps is handed for one event: the session's thread, the Slack
// client with the agent's bot token, and the two ways it writes there.
import type { PrismaClient } from "@prisma/client";
import type { ChatPostMessageResponse, KnownBlock, WebClient } from "@slack/web-api";
import type { SlackPack, SlackThread } from "./slack-pack";

/** A session's channel state, as the Slack pack keeps it: its thread, and its approvals' messages by call. */
export type SlackState = { slack?: SlackThread; approvals?: Record<string, string> };

/** A streamed message being written, per session (the dispatcher holds a session in one worker). */
export type Streaming = { ts?: string; text: string; updatedAt: number };

/** What the delivery keeps between a session's events, by session id. */
export type SlackSessions = { streaming: Map<string, Streaming>; subagentSteps: Map<string, number> };

export type SlackMessage = { text: string; blocks?: KnownBlock[] };

/** One event on its way to its session's thread. */
export type ThreadDelivery = {
  db: PrismaClient;
  sessionId: string;
  pack: SlackPack;
  /** The channel state as read for this event. */
  state: SlackState;
  thread: SlackThread;
  client: WebClient;
  /** A new message in the thread. */
  post: (message: SlackMessage) => Promise<ChatPostMessageResponse>;
  /** The thread's status line; "" clears it. */
  setStatus: (text: string) => Promise<void>;
  /** How many subagent steps deep the session was when this event came. */
  depth: number;
};
