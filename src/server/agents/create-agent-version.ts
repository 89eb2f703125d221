// An upload (zip or tar.gz) becomes an AgentVersion: extracted safely into its own directory,
// loaded (bundled and described in a sandbox), stored with its manifest and diagnostics, and
// activated when it is valid. A rejected archive leaves nothing behind, on disk or in the
// database.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Prisma, PrismaClient } from "@prisma/client";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import type { AgentManifest } from "@/agents/loader/manifest";
import { slugProblem } from "@/agents/loader/names";
import { AppError } from "@/server/errors";
import { extractUpload } from "./intake/extract-upload";
import type { AgentVersionSummary } from "./schema";
import { agentDir, versionPaths } from "./storage";
import { toVersionSummary, versionSelect } from "./version-summary";
import { forgetCredentials } from "@/server/auth/credential-cache";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";
import { agentFolderOf } from "./load-packed-folder";

async function findOrPlanAgent(db: PrismaClient, teamId: string, slug: string) {
  const problem = slugProblem(slug);
  if (problem) throw new AppError("invalid_input", problem);
  const existing = await db.agent.findUnique({ where: { slug }, select: { id: true, teamId: true } });
  if (existing && existing.teamId !== teamId) throw new AppError("conflict", `the slug '${slug}' is taken`);
  if (!existing) {
    // Slugs are unique ignoring case (a unique index on lower(slug)): `Weather` is taken by `weather`.
    const twin = await db.agent.findFirst({
      where: { slug: { equals: slug, mode: "insensitive" } },
      select: { slug: true },
    });
    if (twin)
      throw new AppError(
        "conflict",
        `the slug '${slug}' is taken by the agent '${twin.slug}' (slugs are unique ignoring case)`,
      );
  }
  return { id: existing?.id ?? crypto.randomUUID(), isNew: !existing };
}

/** Peer connections (`{ agent: slug }`) must name an agent of the same team: peers are asked
 * within a team (docs/agent-folders.md, "Validating"). */
async function missingPeers(
  db: PrismaClient,
  teamId: string,
  slug: string,
  manifest: AgentManifest | undefined,
): Promise<Diagnostic[]> {
  const peers = (manifest?.connections ?? []).flatMap((c) => {
    const peer = (c.config as { agent?: unknown }).agent;
    return typeof peer === "string" ? [{ file: c.file, peer }] : [];
  });
  if (peers.length === 0) return [];
  const found = await db.agent.findMany({
    where: { slug: { in: peers.map((p) => p.peer) }, teamId },
    select: { slug: true },
  });
  const known = new Set([slug, ...found.map((a) => a.slug)]);
  return peers
    .filter((p) => !known.has(p.peer))
    .map((p) => ({ level: "error" as const, file: p.file, message: `peer agent '${p.peer}' is not in this team` }));
}

export async function createAgentVersion(options: {
  db: PrismaClient;
  dataDir: string;
  teamId: string;
  slug: string;
  archive: Buffer;
  createdById?: string;
  /** Activate the new version when it is valid (default true). */
  activate?: boolean;
  /** How the folder is bundled and described: in this process (CLI, worker, tests) by default;
   * the web app passes a loader that runs in a child process. */
  load?: (options: {
    folderDir: string;
    folderName: string;
    projectDir?: string;
    outDir: string;
    dependencies?: { cacheDir: string };
    models?: ModelRouting;
  }) => Promise<LoadedAgent>;
  /** The instance's default model and aliases (src/server/models.ts modelRouting). */
  models?: ModelRouting;
  /** Told as each step starts, for a deploy's progress (docs/api.md, the upload route). */
  onStep?: (step: "validating" | "bundling" | "activating") => void;
}): Promise<AgentVersionSummary> {
  const { db, dataDir, teamId, slug, archive, createdById, activate = true, load = loadAgentFolder } = options;
  const agent = await findOrPlanAgent(db, teamId, slug);
  const versionId = crypto.randomUUID();
  const paths = versionPaths(dataDir, agent.id, versionId);
  try {
    options.onStep?.("validating");
    const extracted = await extractUpload({ archive, destDir: paths.source });
    fs.writeFileSync(paths.archive(extracted.format), archive);
    // npm dependencies from the upload's lockfile, installed once per lockfile for every agent.
    const dependencies = { cacheDir: path.join(dataDir, "dependencies") };
    fs.mkdirSync(dependencies.cacheDir, { recursive: true });
    options.onStep?.("bundling");
    const loaded = await load({
      ...agentFolderOf(paths.source),
      folderName: slug,
      outDir: paths.bundle,
      dependencies,
      ...(options.models ? { models: options.models } : {}),
    });
    loaded.diagnostics.push(...(await missingPeers(db, teamId, slug, loaded.manifest)));
    const status = loaded.diagnostics.some((d) => d.level === "error") ? "invalid" : "ready";
    if (status === "ready" && activate) options.onStep?.("activating");
    const version = await db.$transaction(async (tx) => {
      if (agent.isNew) {
        await tx.agent.create({
          data: {
            id: agent.id,
            teamId,
            slug,
            name: loaded.manifest?.name ?? slug,
            description: loaded.manifest?.description,
          },
        });
      }
      const last = await tx.agentVersion.aggregate({ where: { agentId: agent.id }, _max: { number: true } });
      const created = await tx.agentVersion.create({
        data: {
          id: versionId,
          agentId: agent.id,
          number: (last._max.number ?? 0) + 1,
          status,
          archivePath: paths.archive(extracted.format).slice(dataDir.length + 1),
          bundlePath: loaded.bundlePath ? loaded.bundlePath.slice(dataDir.length + 1) : null,
          // Both are plain JSON (the sandbox serialised them); Prisma's Json input type cannot see that.
          manifest: (loaded.manifest ?? undefined) as Prisma.InputJsonValue | undefined,
          diagnostics: loaded.diagnostics as Prisma.InputJsonValue,
          fileCount: extracted.files.length,
          sourceBytes: extracted.totalBytes,
          createdById,
        },
        select: { id: true },
      });
      if (status === "ready" && activate) {
        await tx.agent.update({
          where: { id: agent.id },
          data: {
            activeVersionId: created.id,
            name: loaded.manifest?.name ?? slug,
            description: loaded.manifest?.description,
          },
        });
      }
      return tx.agentVersion.findUniqueOrThrow({ where: { id: created.id }, select: versionSelect });
    });
    forgetCredentials();
    return toVersionSummary(version);
  } catch (error) {
    // Nothing of a failed upload stays: not its files, and (the transaction rolled back) no rows.
    fs.rmSync(agent.isNew ? agentDir(dataDir, agent.id) : paths.dir, { recursive: true, force: true });
    // Two uploads of one agent (or of one new slug) racing: the one that committed first wins.
    if ((error as { code?: string }).code === "P2002")
      throw new AppError("conflict", `another upload of '${slug}' finished first; upload again`);
    throw error;
  }
}
