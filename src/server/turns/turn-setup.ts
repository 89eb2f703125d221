// Everything a turn needs that is read once, at its start: the pinned version's surface, the
// model, the system prompt and the conversation up to the turn's own message. All of it reads
// the same when the turn runs again after a crash (the version is immutable and the conversation
// stops at the turn's message.received), except the few settings people can change meanwhile:
// those are journaled by the prepare step (run-turn.ts), not the whole setup.
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { ModelMessage } from "ai";
import { emptyManifest, type AgentManifest } from "@/agents/loader/manifest";
import { chooseModel } from "@/agents/runtime/models/model-choice";
import type { SessionInfo } from "@/agents/sandbox/protocol";
import type { Principal } from "@/agents/sdk/types";
import { agentDir, stateRoot, workspaceDir } from "@/server/agents/storage";
import { poolOf } from "@/server/db";
import type { SessionSetupRow, TurnSetup } from "./engine";
import { eagerEpoch, eagerStartColumns, type EagerStart } from "./step-journal";

/** The session as agent code sees it (ctx.session): without the platform's own fields. */
export function sessionInfo(setup: TurnSetup): SessionInfo {
  const { id, channel, mode, auth, purpose, title, dryRun } = setup.session;
  return { id, channel, mode, auth, purpose, dryRun, ...(title ? { title } : {}) };
}

const setupSql = (
  extraColumns = "",
) => `SELECT s.id, s."agentId", s."agentVersionId", s."ownerKind", s."ownerId", s."channelId", s.mode, s.purpose, s.title, s."dryRun",
    v.manifest, v."bundlePath", a."unattendedApprovals"${extraColumns}
  FROM sessions s JOIN "AgentVersion" v ON v.id = s."agentVersionId" JOIN "Agent" a ON a.id = s."agentId" WHERE s.id = $1`;

/**
 * An eager run's first read (src/server/worker/eager-turns.ts): the session and its version and,
 * in the same statement, whether the run may go on (step-journal.ts, EagerStart). Undefined when
 * the session is gone.
 */
export async function readEagerTurnStart(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
): Promise<(SessionSetupRow & EagerStart) | undefined> {
  const { rows } = await poolOf(db).query<SessionSetupRow & EagerStart>({
    name: "agentfold-turn-session-eager",
    text: setupSql(`, ${eagerStartColumns}`),
    values: [turn.sessionId, turn.turnId, eagerEpoch],
  });
  return rows[0];
}

export async function loadTurnSetup(options: {
  db: PrismaClient;
  dataDir: string;
  sessionId: string;
  turnId: string;
  defaultModel: string;
  /** AGENTFOLD_MODEL_ALIASES: what Cursor's bare model ids run on. */
  aliases?: Record<string, string>;
  /** The conversation when the caller knows it (a new session's first turn: its message). */
  conversation?: ModelMessage[];
  /** The session row when the caller reads it already (readEagerTurnStart). */
  row?: Promise<SessionSetupRow | undefined>;
}): Promise<TurnSetup> {
  const { db, dataDir, sessionId, turnId, defaultModel } = options;
  const read = async () =>
    (await poolOf(db).query<SessionSetupRow>({ name: "agentfold-turn-session", text: setupSql(), values: [sessionId] }))
      .rows[0];
  const [session, messages] = await Promise.all([
    options.row ?? read(),
    options.conversation ?? conversation(db, sessionId, turnId),
  ]);
  if (!session) throw new Error(`no session ${sessionId}`);
  const manifest = session.manifest ?? {};
  const model = chooseModel(manifest.model, { defaultModel, aliases: options.aliases });
  const auth: Principal = { kind: session.ownerKind as Principal["kind"], id: session.ownerId };
  return {
    session: {
      id: session.id,
      channel: session.channelId,
      mode: session.mode,
      auth,
      purpose: session.purpose,
      ...(session.title ? { title: session.title } : {}),
      dryRun: session.dryRun,
      agentId: session.agentId,
      versionId: session.agentVersionId,
      unattendedApprovals: session.unattendedApprovals === "park" ? "park" : "deny",
    },
    manifest: { ...emptyManifest, ...manifest },
    modelId: model.id,
    ...(model.providerOptions ? { modelOptions: model.providerOptions } : {}),
    system: systemPrompt(manifest),
    messages,
    bundlePath: session.bundlePath ? path.join(dataDir, session.bundlePath) : null,
    agentDir: agentDir(dataDir, session.agentId),
    workspaceDir: workspaceDir(dataDir, session.agentId, sessionId),
    stateRoot: stateRoot(dataDir, session.agentId),
  };
}

/** The instructions, then an index of skills and subagents: the model loads a skill in full
 * (the `skill` tool) or delegates (the `task` tool) only when it needs to. */
export function systemPrompt(manifest: Partial<AgentManifest>): string {
  const parts = [manifest.instructionsText?.trim() ?? ""];
  const skills = manifest.skills ?? [];
  if (skills.length > 0) {
    parts.push(
      [
        "## Skills",
        "Load a skill's full text with the `skill` tool before following it.",
        ...skills.map((s) => `- ${s.name}: ${s.description ?? "(no description)"}`),
      ].join("\n"),
    );
  }
  const subagents = manifest.subagents ?? [];
  if (subagents.length > 0) {
    parts.push(
      [
        "## Subagents",
        "Delegate work with the `task` tool, naming one of:",
        ...subagents.map((s) => `- ${s.id}: ${s.description ?? "(no description)"}`),
      ].join("\n"),
    );
  }
  return parts.filter(Boolean).join("\n\n");
}

/**
 * The conversation as the model sees it: what people said (messages and nudges) and the agent's
 * final replies, up to and including this turn's message. Tool calls of earlier turns are not
 * replayed; their outcome is in the replies.
 */
async function conversation(db: PrismaClient, sessionId: string, turnId: string): Promise<ModelMessage[]> {
  const { rows } = await poolOf(db).query<{ type: string; text: string | null }>({
    name: "agentfold-turn-conversation",
    text: `SELECT type, data->>'text' AS text FROM session_events
           WHERE "sessionId" = $1 AND type IN ('message.received', 'nudge.delivered', 'message.completed')
             AND index <= COALESCE((SELECT max(index) FROM session_events WHERE "sessionId" = $1 AND "turnId" = $2 AND type = 'message.received'), 2147483647)
           ORDER BY index`,
    values: [sessionId, turnId],
  });
  return rows.flatMap((row): ModelMessage[] =>
    row.text === null ? [] : [{ role: row.type === "message.completed" ? "assistant" : "user", content: row.text }],
  );
}
