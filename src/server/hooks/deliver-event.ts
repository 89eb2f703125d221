// One event to a session's hooks, in the version's sandbox: each hook in discovery order, one at a
// time; a hook whose handler throws or runs past its time is logged and the next one still runs.
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { SessionEvent } from "@/agents/sdk/events";
import { stateRoot, versionSandboxSpec } from "@/server/agents/storage";
import type { HostContext } from "@/server/turns/host-calls";
import type { HookTarget } from "./hook-target";

export type HookFailure = { hook: string; event: { type: string; index: number }; sessionId: string; error: string };

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
  target: HookTarget;
  event: SessionEvent;
  sandboxes: SandboxPool;
  dataDir: string;
  timeoutMs: number;
  onFailure: (failure: HookFailure) => void;
}): Promise<void> {
  const { target, event, sandboxes, dataDir, timeoutMs, onFailure } = options;
  const hooks = target.hooks.filter((hook) => hook.events.includes(event.type) || hook.events.includes("*"));
  if (hooks.length === 0) return;
  const sandbox = sandboxes.forVersion(versionSandboxSpec(dataDir, target));
  const context = hookContext(target, dataDir);
  const hostContext: HostContext = {
    agentId: target.agentId,
    versionId: target.versionId,
    bundlePath: target.bundlePath,
    sessionId: target.sessionId,
    principal: target.session.auth,
  };
  for (const hook of hooks) {
    const failed = (error: string) =>
      onFailure({
        hook: hook.name,
        event: { type: event.type, index: event.index },
        sessionId: target.sessionId,
        error,
      });
    try {
      const outcome = await sandbox.call("runHook", { file: hook.file, event, context }, { timeoutMs, hostContext });
      if (!outcome.ok) failed(outcome.error);
    } catch (error) {
      failed(error instanceof Error ? error.message : String(error));
    }
  }
}
