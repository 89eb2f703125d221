// An archive uploaded over HTTP (the dashboard or a deploy script) becomes a version of an agent
// in the caller's team, if the caller may deploy there. The dashboard uploads without activating
// so a person reads the diagnostics first; scripts activate a valid version at once.
import type { PrismaClient } from "@prisma/client";
import type { Caller } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { loadAgentInChild } from "@/agents/loader/load-agent-in-child";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";
import { createAgentVersion } from "./create-agent-version";
import { processUploadSlots, type UploadSlots } from "./upload-slots";

export async function uploadAgentVersion(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  dataDir: string;
  caller: Caller;
  slug: string;
  teamSlug?: string;
  /** Reads the body: only once the caller is known to be allowed, so nobody else makes the
   * server buffer an archive. */
  readArchive: () => Promise<Buffer>;
  activate: boolean;
  /** Bounds the uploads this process takes in at once (./upload-slots.ts). */
  slots?: UploadSlots;
  load?: typeof loadAgentInChild;
  /** The instance's default model and aliases (src/server/models.ts modelRouting). */
  models?: ModelRouting;
  /** Told as each step starts (`received`: the whole body is in), for a deploy's progress. */
  onStep?: (step: "received" | "validating" | "bundling" | "activating") => void;
}) {
  const {
    db,
    runtime,
    dataDir,
    caller,
    slug,
    activate,
    slots = processUploadSlots(),
    load = loadAgentInChild,
  } = options;
  const existing = await db.agent.findUnique({ where: { slug }, select: { teamId: true } });
  const teamId = existing?.teamId ?? (await teamOf(db, caller, options.teamSlug));
  if (!teamId || !caller.can("agents:deploy", slug, teamId))
    throw new AppError("forbidden", `this caller may not deploy '${slug}'`);
  // The body is read only in a slot: a waiting upload costs a socket, not its archive.
  const free = await slots.enter();
  try {
    const archive = await options.readArchive();
    if (archive.byteLength === 0)
      throw new AppError("invalid_upload", "the upload is empty; send a .zip or .tar.gz of the agent folder");
    options.onStep?.("received");
    const createdById = caller.principal.kind === "user" ? caller.principal.id : undefined;
    const version = await createAgentVersion({
      db,
      dataDir,
      teamId,
      slug,
      archive,
      createdById,
      activate,
      load,
      models: options.models,
      onStep: options.onStep,
    });
    if (version.isActive) await startSchedulers({ db, runtime, agentIds: [version.agentId] });
    return version;
  } finally {
    free();
  }
}

/** The team a new agent goes to; an unknown team reads as forbidden, so slugs cannot be probed. */
async function teamOf(db: PrismaClient, caller: Caller, teamSlug: string | undefined): Promise<string | undefined> {
  if (!teamSlug) {
    if (caller.teamId) return caller.teamId;
    throw new AppError("invalid_input", "a new agent needs ?team=<team slug>");
  }
  const team = await db.team.findUnique({ where: { slug: teamSlug }, select: { id: true } });
  return team?.id;
}
