// One event to a session's channel `events` handlers and then its hooks, in the version's
// sandbox: the channel first (with its state for the session, saved when the handler returns),
// then each hook in discovery order, one at a time; a handler that throws or runs past its time is
// logged and the next one still runs.
import type { PrismaClient } from "@prisma/client";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { SessionEvent } from "@/agents/sdk/events";
import { stateRoot, versionSandboxSpec } from "@/server/agents/storage";
import { readChannelState, rekeyConversation, saveChannelState } from "@/server/agent-channels/channel-state";
import type { HostContext } from "@/server/turns/host-context";
import type { HookTarget } from "./hook-target";
import type { PackDeliveries } from "@/server/agent-channels/pack-types";

export type HookFailure = {
  hook: string;
  source: "hook" | "channel";
  /** The handler threw: the sandbox put its error and stack in the agent's logs already. */
  isInAgentLog: boolean;
  /** The hook's module, or the channel's. */
  file: string;
  event: { type: string; index: number; turnId?: string };
  agentId: string;
  sessionId: string;
  error: string;
};

/** The JSON half of a hook's ctx (docs/agent-folders.md, "Hooks"); the sandbox adds `host`. */
export function hookContext(target: HookTarget, dataDir: string) {
  return {
    session: { id: target.sessionId, ...target.session },
    agent: { name: target.agentName },
    // Follow-up tokens are kept hashed; channels that can continue a session hand theirs out.
    channel: { id: target.session.channelId, continuationToken: null },
    stateRoot: stateRoot(dataDir, target.agentId),
  };
}

export async function deliverEvent(options: {
  db: PrismaClient;
  target: HookTarget;
  event: SessionEvent;
  sandboxes: SandboxPool;
  dataDir: string;
  timeoutMs: number;
  onFailure: (failure: HookFailure) => void;
  packs?: PackDeliveries;
}): Promise<void> {
  const { db, target, event, sandboxes, dataDir, timeoutMs, onFailure } = options;
  const listens = (events: string[]) => events.includes(event.type) || events.includes("*");
  const hooks = target.hooks.filter((hook) => listens(hook.events));
  const pack = target.channel?.pack;
  const toPack = pack ? options.packs?.[pack] : undefined;
  if (toPack && target.channel) {
    try {
      await toPack({ target, event });
    } catch (error) {
      onFailure({
        hook: `channel ${target.channel.name}`,
        source: "channel",
        isInAgentLog: false,
        file: target.channel.file,
        event: { type: event.type, index: event.index, ...(event.turnId ? { turnId: event.turnId } : {}) },
        agentId: target.agentId,
        sessionId: target.sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const channel = target.channel && listens(target.channel.events) ? target.channel : undefined;
  if (hooks.length === 0 && !channel) return;
  const sandbox = sandboxes.forVersion(versionSandboxSpec(dataDir, target));
  const context = hookContext(target, dataDir);
  const hostContext: HostContext = {
    agentId: target.agentId,
    versionId: target.versionId,
    bundlePath: target.bundlePath,
    sessionId: target.sessionId,
    ...(event.turnId ? { turnId: event.turnId } : {}),
    principal: target.session.auth,
  };
  if (channel) {
    const failed = (error: string, isInAgentLog = false) =>
      onFailure({
        hook: `channel ${channel.name}`,
        source: "channel",
        isInAgentLog,
        file: channel.file,
        event: { type: event.type, index: event.index, ...(event.turnId ? { turnId: event.turnId } : {}) },
        agentId: target.agentId,
        sessionId: target.sessionId,
        error,
      });
    try {
      const state = await readChannelState(db, target.sessionId, channel.state);
      const outcome = await sandbox.call(
        "runChannelEvent",
        { file: channel.file, event, context, state },
        { timeoutMs, hostContext: { ...hostContext, channelId: channel.name } },
      );
      if (!outcome.ok) failed(outcome.error, true);
      else {
        await saveChannelState(db, target.sessionId, outcome.state);
        if (outcome.continuationToken)
          await rekeyConversation(
            db,
            { agentId: target.agentId, channelId: channel.name, sessionId: target.sessionId },
            outcome.continuationToken,
          );
      }
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error));
    }
  }
  for (const hook of hooks) {
    const failed = (error: string, isInAgentLog = false) =>
      onFailure({
        hook: hook.name,
        source: "hook",
        isInAgentLog,
        file: hook.file,
        event: { type: event.type, index: event.index, ...(event.turnId ? { turnId: event.turnId } : {}) },
        agentId: target.agentId,
        sessionId: target.sessionId,
        error,
      });
    try {
      const outcome = await sandbox.call("runHook", { file: hook.file, event, context }, { timeoutMs, hostContext });
      if (!outcome.ok) failed(outcome.error, true);
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error));
    }
  }
}
