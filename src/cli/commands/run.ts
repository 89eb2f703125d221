// agentfold run --dir <folder> --message "…" [--dry-run] [--approve]: one turn of the folder's
// agent on a throwaway local stack; prints its trajectory (tool calls, reply, usage) as JSON
// (docs/cli.md, "run"). Exit 0 when the turn completed, 1 when it failed or waits on a person.
import type { Env } from "@/env";
import { parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { agentSlugFlag, dirFlag } from "@/cli/flags";
import type { LocalAgent } from "@/cli/local/local-agent";
import { say, withLocalAgent } from "@/cli/local/with-local-agent";
import { type Trajectory, trajectoryOf } from "@/cli/session/trajectory";
import type { SessionEvent } from "@/agents/sdk/events";
import { decideApproval } from "@/server/approvals/decide-approval";
import { localCaller } from "@/server/auth/local-caller";
import { readEvents } from "@/server/events/read-events";
import { startSession } from "@/server/sessions/start-session";

/** How often the local log is read while the turn runs: one indexed query, on this machine. */
const pollMs = 50;

export type RunOptions = { dir: string; message: string; slug?: string; isDryRun: boolean; isApproving: boolean };

/** Reads the session's log until its first turn ends, approving parked calls when asked to; a
 * turn left waiting on a person ends the read too. */
async function followTurn(
  local: LocalAgent,
  sessionId: string,
  isApproving: boolean,
  signal: AbortSignal,
): Promise<{ events: SessionEvent[]; trajectory: Trajectory }> {
  const events: SessionEvent[] = [];
  const decided = new Set<string>();
  for (;;) {
    signal.throwIfAborted();
    events.push(...(await readEvents({ db: local.db, sessionId, fromIndex: events.length })));
    const trajectory = trajectoryOf(events);
    if (trajectory.status === "completed" || trajectory.status === "failed" || trajectory.status === "cancelled")
      return { events, trajectory };
    const parked = trajectory.toolCalls.filter((c) => c.status === "waiting" && !decided.has(c.callId));
    if (parked.length && !isApproving) return { events, trajectory };
    for (const call of parked) {
      decided.add(call.callId);
      say(`approving ${call.tool} (${call.callId})`);
      await decideApproval({
        db: local.db,
        runtime: local.runtime,
        agent: local.agent,
        sessionId,
        callId: call.callId,
        caller: localCaller(local.agent.slug),
        body: { decision: "approve" },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export async function runCommand(options: RunOptions, config: Env): Promise<number> {
  return withLocalAgent({ ...options, config, teamName: "Local runs" }, async (local, signal) => {
    const started = await startSession({
      db: local.db,
      runtime: local.runtime,
      agent: local.agent,
      principal: { kind: "local", id: "local" },
      body: { message: options.message, ...(options.isDryRun ? { dryRun: true } : {}) },
      baseUrl: "http://127.0.0.1",
    });
    say(`session ${started.sessionId}${options.isDryRun ? " (dry run: write tools answer with their stand-ins)" : ""}`);
    const { trajectory } = await followTurn(local, started.sessionId, options.isApproving, signal);
    process.stdout.write(`${JSON.stringify(trajectory, null, 2)}\n`);
    if (trajectory.status === "waiting") {
      const parked = trajectory.toolCalls.filter((c) => c.status === "waiting").map((c) => c.tool);
      say(
        `the turn waits for approval of ${parked.join(", ")}: pass --approve to approve every call, or try it with agentfold dev`,
      );
    } else if (trajectory.status !== "completed")
      say(`the turn ${trajectory.status}: ${trajectory.turns.at(-1)?.error ?? ""}`);
    return trajectory.status === "completed" ? 0 : 1;
  });
}

export const runCommandSpec = defineCommand({
  name: "run",
  group: "sessions",
  summary:
    "Run one turn of the folder's agent on a throwaway local stack; print its tool calls, reply and usage as JSON",
  details: "Exit 0 when the turn completed, 1 when it failed or waits for an approval. The shape: docs/cli.md.",
  flags: {
    dir: dirFlag,
    message: { type: "string", value: "<text>", required: true, description: "What to say to the agent" },
    "dry-run": { type: "boolean", description: "Write tools answer with their dryRunResult instead of running" },
    approve: { type: "boolean", description: "Approve every call that needs approval (as you, the local principal)" },
    slug: agentSlugFlag,
  },
  examples: [
    'agentfold run --dir examples/hello --message "Greet Ada"',
    "agentfold run --dir . --message 'Refund order A1' --dry-run | jq '.toolCalls'",
  ],
  run: ({ flags }) =>
    runCommand(
      {
        dir: flags.dir ?? ".",
        message: flags.message,
        slug: flags.slug,
        isDryRun: flags["dry-run"],
        isApproving: flags.approve,
      },
      parseEnv(),
    ),
});
