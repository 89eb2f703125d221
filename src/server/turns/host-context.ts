// The platform request a host call from agent code belongs to (src/server/turns/host-calls.ts):
// whose session, turn, channel and principal the call acts in. Its own module so that the host
// call handlers in other domains (Slack, GitHub) can name it without importing the dispatcher.
import type { Context } from "@opentelemetry/api";
import type { Principal } from "@/agents/sdk/types";
import type { Spend } from "./engine";

export type HostContext = {
  agentId: string;
  versionId: string;
  bundlePath: string;
  sessionId?: string;
  /** The turn the call is part of (its log lines carry it). */
  turnId?: string;
  /** The channel whose route is running: its send() starts sessions on it. */
  channelId?: string;
  /** Whom the code acts for: the session's owner (tools, hooks) or the schedule's appAuth. */
  principal?: Principal;
  appAuth?: Principal;
  /** The eval case the code runs (`t.send`, `t.judge`: src/server/evals/eval-host-calls.ts). */
  evalCase?: { runId: string; caseId: string; iteration: number; deadline: number };
  /** The span of the platform's call (a tool call's): agent code's spans go under it. */
  trace?: Context;
  /** Takes what the host spends on the code's behalf (decide's model calls): a tool call's, so
   * that it counts in its turn's usage. Elsewhere it counts in the model metrics only. */
  spend?: (spent: Spend) => void;
};
