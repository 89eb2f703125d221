// host.files: files of one session (the default scope) or shared by the whole agent ("deployment"),
// in Postgres as bytea: durable across restarts and versions, and the same for every worker.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { normalizeFilePath } from "./file-paths";
import { fileBytes, fileText, prefixOption } from "./file-content";
import { count, quoted } from "./text";
import type { FileOptions, HostFiles } from "./types";

export const fileLimits = {
  fileBytes: 8 * 1024 * 1024,
  filesPerScope: 10_000,
  /** Paths one list call returns, the first in byte order: a longer listing takes prefixes. */
  listedFiles: 1000,
};

/** scopeKey is the session id, or "" for deployment scope (table agent_files). */
type Scope = { scopeKey: string; sessionId: string | null };

export function createFilesStore(db: PrismaClient, where: { agentId: string; sessionId?: string }): HostFiles {
  const pool = poolOf(db);
  const { agentId } = where;

  function scopeOf(options: FileOptions | undefined): Scope {
    const scope = options?.scope ?? "session";
    if (scope === "deployment") return { scopeKey: "", sessionId: null };
    if (scope !== "session") {
      throw new AppError("invalid_input", `host.files: scope must be "session" or "deployment", not ${String(scope)}`);
    }
    if (!where.sessionId) {
      throw new AppError(
        "bad_request",
        'host.files: this call runs outside a session, so it has no session files; pass { scope: "deployment" } for the files the agent shares',
      );
    }
    return { scopeKey: where.sessionId, sessionId: where.sessionId };
  }

  /** Writes `bytes` as the file, or after its content (`isAppend`), in one statement. */
  async function store(rawPath: string, content: string, options: FileOptions | undefined, isAppend: boolean) {
    const path = normalizeFilePath(rawPath);
    const scope = scopeOf(options);
    const bytes = fileBytes(path, content, options?.encoding, fileLimits.fileBytes);
    const update = isAppend
      ? `content = agent_files.content || EXCLUDED.content, size = agent_files.size + EXCLUDED.size`
      : `content = EXCLUDED.content, size = EXCLUDED.size`;
    // The row lock of ON CONFLICT orders concurrent writes and appends of one file, and the WHERE
    // sees the file as the previous one left it: appends neither interleave nor lose content.
    // A new file counts against the scope's limit (a CASE, so the count runs only for new files).
    const { rows } = await pool
      .query<{ size: number }>({
        text: `INSERT INTO agent_files ("agentId", "scopeKey", "sessionId", path, content, size, "updatedAt")
               SELECT $1::text, $2::text, $3::text, $4::text, $5::bytea, $6::int, now() AT TIME ZONE 'UTC'
               WHERE CASE
                 WHEN EXISTS (SELECT 1 FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2 AND path = $4) THEN true
                 ELSE (SELECT count(*) FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2) < $7
               END
               ON CONFLICT ("agentId", "scopeKey", path) DO UPDATE
                 SET ${update}, "updatedAt" = EXCLUDED."updatedAt"
                 WHERE ${isAppend ? "agent_files.size + EXCLUDED.size" : "EXCLUDED.size"} <= $8
               RETURNING size`,
        values: [
          agentId,
          scope.scopeKey,
          scope.sessionId,
          path,
          bytes,
          bytes.length,
          fileLimits.filesPerScope,
          fileLimits.fileBytes,
        ],
      })
      .catch(ownerGone);
    if (!rows[0]) throw await refusal(path, scope, bytes.length, isAppend);
  }

  /** Why a write or append stored nothing: the file would be too large, or the scope is full. */
  async function refusal(path: string, scope: Scope, adding: number, isAppend: boolean): Promise<AppError> {
    const { rows } = await pool.query<{ size: number | null; files: number }>(
      `SELECT (SELECT size FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2 AND path = $3) AS size,
              (SELECT count(*)::int FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2) AS files`,
      [agentId, scope.scopeKey, path],
    );
    const { size = null, files = 0 } = rows[0] ?? {};
    if (size === null && files >= fileLimits.filesPerScope) {
      return new AppError(
        "payload_too_large",
        `host.files: this scope holds ${count(fileLimits.filesPerScope)} files, the limit; ${quoted(path)} would be a new one (delete files first)`,
      );
    }
    if (!isAppend || size === null) {
      return new AppError("conflict", `host.files: ${quoted(path)} changed while it was written; try again`);
    }
    return new AppError(
      "payload_too_large",
      `host.files: appending ${count(adding)} bytes to ${quoted(path)} (${count(size ?? 0)} bytes) would pass the limit of 8 MiB (${count(fileLimits.fileBytes)} bytes) per file`,
    );
  }

  return {
    async read(rawPath, options) {
      const path = normalizeFilePath(rawPath);
      const { scopeKey } = scopeOf(options);
      const { rows } = await pool.query<{ content: Buffer }>(
        `SELECT content FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2 AND path = $3`,
        [agentId, scopeKey, path],
      );
      return rows[0] && fileText(rows[0].content, options?.encoding);
    },
    write: (path, content, options) => store(path, content, options, false),
    append: (path, content, options) => store(path, content, options, true),
    async list(prefix = "", options) {
      const { scopeKey } = scopeOf(options);
      const { rows } = await pool.query<{ path: string }>(
        `SELECT path FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2 AND starts_with(path, $3)
         ORDER BY path COLLATE "C" LIMIT $4`,
        [agentId, scopeKey, prefixOption(prefix), fileLimits.listedFiles],
      );
      return rows.map((row) => row.path);
    },
    async delete(rawPath, options) {
      const path = normalizeFilePath(rawPath);
      const { scopeKey } = scopeOf(options);
      await pool.query(`DELETE FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = $2 AND path = $3`, [
        agentId,
        scopeKey,
        path,
      ]);
    },
  };
}

/** A write whose agent or session was deleted meanwhile fails its foreign key. */
function ownerGone(error: unknown): never {
  if ((error as { code?: string }).code === "23503") {
    throw new AppError("not_found", "host.files: the session or agent no longer exists");
  }
  throw error;
}
