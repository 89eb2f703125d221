// Which hooks a session's events go to: the hooks of the version it is pinned to, looked up once
// per session and kept (a version never changes). Sessions of versions without hooks are
// remembered as such, so their events cost a map lookup and nothing else.
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { HookManifest } from "@/agents/loader/manifest";
import type { Principal } from "@/agents/sdk/types";
import { poolOf } from "@/server/db";

/** A session whose version has hooks, with what a hook's ctx is made of. */
export type HookTarget = {
  sessionId: string;
  agentId: string;
  agentName: string;
  versionId: string;
  bundlePath: string;
  hooks: HookManifest[];
  session: { channelId: string; mode: "chat" | "task"; purpose: "live" | "eval"; auth: Principal; title?: string };
};

type Row = {
  agentId: string;
  agentName: string;
  versionId: string;
  bundlePath: string | null;
  hooks: HookManifest[] | null;
  channelId: string;
  mode: "chat" | "task";
  purpose: "live" | "eval";
  ownerKind: string;
  ownerId: string;
  title: string | null;
};

// Only versions with hooks answer a row.
const targetSql = `SELECT s."agentId", a.name AS "agentName", s."agentVersionId" AS "versionId", v."bundlePath",
    v.manifest->'hooks' AS hooks, s."channelId", s.mode, s.purpose, s."ownerKind", s."ownerId", s.title
  FROM sessions s JOIN "AgentVersion" v ON v.id = s."agentVersionId" JOIN "Agent" a ON a.id = s."agentId"
  WHERE s.id = $1 AND jsonb_typeof(v.manifest->'hooks') = 'array' AND jsonb_array_length(v.manifest->'hooks') > 0`;

/** Looks targets up, remembering up to `max` sessions (the oldest looked-up is forgotten first). */
export function createHookTargets(db: PrismaClient, dataDir: string, max = 10_000) {
  const known = new Map<string, Promise<HookTarget | null>>();
  async function lookUp(sessionId: string): Promise<HookTarget | null> {
    const { rows } = await poolOf(db).query<Row>({
      name: "agentfold-hook-target",
      text: targetSql,
      values: [sessionId],
    });
    const row = rows[0];
    if (!row?.bundlePath || !row.hooks?.length) return null;
    return {
      sessionId,
      agentId: row.agentId,
      agentName: row.agentName,
      versionId: row.versionId,
      bundlePath: path.join(dataDir, row.bundlePath),
      hooks: row.hooks,
      session: {
        channelId: row.channelId,
        mode: row.mode,
        purpose: row.purpose,
        auth: { kind: row.ownerKind as Principal["kind"], id: row.ownerId },
        ...(row.title ? { title: row.title } : {}),
      },
    };
  }
  return {
    of(sessionId: string): Promise<HookTarget | null> {
      let target = known.get(sessionId);
      if (!target) {
        target = lookUp(sessionId);
        // A failed lookup is not remembered: the next event asks again.
        target.catch(() => known.delete(sessionId));
        known.set(sessionId, target);
        if (known.size > max) known.delete(known.keys().next().value!);
      }
      return target;
    },
  };
}
