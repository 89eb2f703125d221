// Where a session's events go: its channel's `events` handlers (when the session is on a channel
// that has them), then the hooks of the version it is pinned to; looked up once per session and
// kept (a version never changes). Sessions with neither are remembered as such, so their events
// cost a map lookup and nothing else.
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
  /** The session's channel, when its `events` map has handlers or it is a prebuilt pack (Slack,
   * GitHub), whose deliveries are the platform's own (src/server/agent-channels/packs.ts). */
  channel?: { name: string; file: string; events: string[]; state: unknown; pack?: string; config?: unknown };
  session: { channelId: string; mode: "chat" | "task"; purpose: "live" | "eval"; auth: Principal; title?: string };
};

type Row = {
  agentId: string;
  agentName: string;
  versionId: string;
  bundlePath: string | null;
  hooks: HookManifest[] | null;
  channel: { name: string; file: string; config?: { events?: string[]; state?: unknown; pack?: string } } | null;
  channelId: string;
  mode: "chat" | "task";
  purpose: "live" | "eval";
  ownerKind: string;
  ownerId: string;
  title: string | null;
};

/** SQL: whether a manifest channel (`c`) delivers: its events map has keys, or it is a pack. */
const channelDeliversSql = `((jsonb_typeof(c->'config'->'events') = 'array' AND jsonb_array_length(c->'config'->'events') > 0)
    OR c->'config'->>'pack' IN ('slack', 'github'))`;

/** SQL: the session's channel in the version's manifest (`s`, `v`), when it delivers. */
export const eventsChannelSql = `(SELECT c FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.manifest->'channels') = 'array'
    THEN v.manifest->'channels' ELSE '[]'::jsonb END) c
  WHERE c->>'name' = s."channelId" AND ${channelDeliversSql} LIMIT 1)`;

/** SQL: whether the version (`v`) has hooks. */
export const hasHooksSql = `(jsonb_typeof(v.manifest->'hooks') = 'array' AND jsonb_array_length(v.manifest->'hooks') > 0)`;

// Only sessions with hooks or channel events answer a row.
const targetSql = `SELECT * FROM (SELECT s."agentId", a.name AS "agentName", s."agentVersionId" AS "versionId", v."bundlePath",
    CASE WHEN ${hasHooksSql} THEN v.manifest->'hooks' END AS hooks, ${eventsChannelSql} AS channel,
    s."channelId", s.mode, s.purpose, s."ownerKind", s."ownerId", s.title
  FROM sessions s JOIN "AgentVersion" v ON v.id = s."agentVersionId" JOIN "Agent" a ON a.id = s."agentId"
  WHERE s.id = $1) t WHERE hooks IS NOT NULL OR channel IS NOT NULL`;

/** SQL: whether a version (`v`) delivers anything: hooks, or a channel with an events map. */
export const versionDeliversSql = `(${hasHooksSql} OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN
    jsonb_typeof(v.manifest->'channels') = 'array' THEN v.manifest->'channels' ELSE '[]'::jsonb END) c
  WHERE ${channelDeliversSql}))`;

/** Looks targets up, remembering up to `max` sessions (the oldest looked-up is forgotten first).
 * Most sessions' versions deliver nothing: a session's version is one primary-key read, and
 * whether a version delivers is read once per version (versions never change). */
export function createHookTargets(db: PrismaClient, dataDir: string, max = 10_000) {
  const known = new Map<string, Promise<HookTarget | null>>();
  const versions = new Map<string, Promise<boolean>>();
  const delivers = (versionId: string) => {
    let answer = versions.get(versionId);
    if (!answer) {
      answer = poolOf(db)
        .query<{ delivers: boolean }>({
          name: "agentfold-hook-version",
          text: `SELECT ${versionDeliversSql} AS delivers FROM "AgentVersion" v WHERE v.id = $1`,
          values: [versionId],
        })
        .then(({ rows }) => rows[0]?.delivers === true);
      answer.catch(() => versions.delete(versionId));
      versions.set(versionId, answer);
    }
    return answer;
  };
  async function lookUp(sessionId: string): Promise<HookTarget | null> {
    const { rows: found } = await poolOf(db).query<{ agentVersionId: string }>({
      name: "agentfold-hook-session-version",
      text: `SELECT "agentVersionId" FROM sessions WHERE id = $1`,
      values: [sessionId],
    });
    const versionId = found[0]?.agentVersionId;
    if (!versionId || !(await delivers(versionId))) return null;
    const { rows } = await poolOf(db).query<Row>({
      name: "agentfold-hook-target",
      text: targetSql,
      values: [sessionId],
    });
    const row = rows[0];
    const events = row?.channel?.config?.events ?? [];
    const pack = row?.channel?.config?.pack;
    if (!row?.bundlePath || (!row.hooks?.length && events.length === 0 && !pack)) return null;
    return {
      sessionId,
      agentId: row.agentId,
      agentName: row.agentName,
      versionId: row.versionId,
      bundlePath: path.join(dataDir, row.bundlePath),
      hooks: row.hooks ?? [],
      ...(row.channel && (events.length > 0 || pack)
        ? {
            channel: {
              name: row.channel.name,
              file: row.channel.file,
              events,
              state: row.channel.config?.state ?? {},
              ...(pack ? { pack, config: row.channel.config } : {}),
            },
          }
        : {}),
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
