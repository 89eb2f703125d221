// Delivers sessions' events to their hooks (docs/agent-folders.md, "Hooks"), in the worker, off
// every turn's path: it hears each append's NOTIFY, and per session drains the log past the
// hooks' cursor one event at a time, in index order. Sessions do not wait on each other. After a
// (re)connection it asks the database which sessions are behind, since notices sent while nobody
// listened are lost.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { sessionEventsChannel } from "@/server/channels";
import { readEvents } from "@/server/events/read-events";
import { listen } from "@/server/events/pg-listener";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import { processLogger } from "@/server/logging/logger";
import { claimEvent, readCursor, releaseSession, sessionsBehind } from "./hook-cursor";
import { deliverEvent, type HookFailure } from "./deliver-event";
import type { PackDeliveries } from "@/server/agent-channels/pack-types";
import { createHookTargets } from "./hook-target";

export type HookDispatcher = {
  /** Delivers what `sessionId` has past its cursor; resolves when it is caught up. */
  drain: (sessionId: string) => Promise<void>;
  /** Drains every session that is behind. */
  catchUp: () => Promise<void>;
  close: () => Promise<void>;
};

const pageSize = 100;

export async function createHookDispatcher(options: {
  db: PrismaClient;
  databaseUrl: string;
  dataDir: string;
  sandboxes: SandboxPool;
  /** How long one hook may take with one event. */
  timeoutMs: number;
  /** How often sessions left behind are looked for (notices lost while the listener reconnected). */
  sweepMs?: number;
  onFailure?: (failure: HookFailure) => void;
  /** Where a failure the sandbox could not report (a timeout, a crash) is told in the agent's logs. */
  logs?: AgentLogWriter;
  log?: (message: string) => void;
  /** Where pack channels' events go (src/server/agent-channels/packs.ts). */
  packs?: PackDeliveries;
}): Promise<HookDispatcher> {
  const { db, dataDir, sandboxes, timeoutMs, sweepMs = 30_000, log = (line) => processLogger().warn(line) } = options;
  const onFailure =
    options.onFailure ??
    ((f: HookFailure) => {
      const message = `hook ${f.hook} failed on ${f.event.type} #${f.event.index}: ${f.error}`;
      log(`${message} (session ${f.sessionId})`);
      // A timeout or a crashed sandbox: nothing in the agent's logs says so yet.
      if (!f.isInAgentLog)
        options.logs?.write({
          agentId: f.agentId,
          level: "error",
          source: f.source,
          name: f.file,
          sessionId: f.sessionId,
          ...(f.event.turnId ? { turnId: f.event.turnId } : {}),
          message,
        });
    });
  const owner = `worker-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  const targets = createHookTargets(db, dataDir);
  // One chain per session: a drain asked for while one runs starts again after it.
  const running = new Map<string, { again: boolean; done: Promise<void> }>();
  let isClosed = false;

  /** One pass over what the session has past its cursor; answers whether more came meanwhile. */
  async function drainOnce(sessionId: string): Promise<boolean> {
    const target = await targets.of(sessionId);
    if (!target) return false;
    // A claim holds the session as long as its hooks may take with one event, and a little more.
    const handlers = target.hooks.length + (target.channel ? 1 : 0);
    const leaseSeconds = Math.ceil((handlers * timeoutMs) / 1000) + 5;
    let isBehind = false;
    try {
      let cursor = await readCursor(db, sessionId);
      for (;;) {
        const events = await readEvents({ db, sessionId, fromIndex: cursor + 1, limit: pageSize });
        for (const event of events) {
          if (isClosed) return false;
          if (!(await claimEvent(db, { sessionId, index: event.index, owner, leaseSeconds }))) {
            // Another worker holds the session (or held it when it died): ask again once its lease may have run out.
            setTimeout(() => void drain(sessionId), leaseSeconds * 1000).unref();
            return false;
          }
          cursor = event.index;
          await deliverEvent({ db, target, event, sandboxes, dataDir, timeoutMs, onFailure, packs: options.packs });
        }
        if (events.length < pageSize) break;
      }
    } finally {
      // Also when it stopped early: the next worker need not wait for the lease to run out.
      isBehind = await releaseSession(db, sessionId, owner);
    }
    return isBehind;
  }

  function drain(sessionId: string): Promise<void> {
    const current = running.get(sessionId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          if (await drainOnce(sessionId)) entry.again = true;
        } while (entry.again && !isClosed);
      } catch (error) {
        log(`hooks of session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running.delete(sessionId);
      }
    })();
    running.set(sessionId, entry);
    return entry.done;
  }

  async function catchUp(): Promise<void> {
    try {
      await Promise.all((await sessionsBehind(db)).map((sessionId) => drain(sessionId)));
    } catch (error) {
      log(`hooks: looking for sessions behind failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const listener = await listen({
    databaseUrl: options.databaseUrl,
    name: "hook dispatcher",
    channels: {
      // Only the session id: the head "S:N" (the event lines after it are for streams).
      [sessionEventsChannel.name]: (payload) => {
        const headEnd = payload.indexOf("\n");
        const head = headEnd === -1 ? payload : payload.slice(0, headEnd);
        const colon = head.lastIndexOf(":");
        if (colon > 0) void drain(head.slice(0, colon));
      },
    },
    onReconnect: () => void catchUp(),
    log,
  });
  const sweep = setInterval(() => void catchUp(), sweepMs);
  sweep.unref();
  void catchUp();

  return {
    drain,
    catchUp,
    close: async () => {
      isClosed = true;
      clearInterval(sweep);
      await listener.close();
      await Promise.all([...running.values()].map((entry) => entry.done));
    },
  };
}
