// What `agentfold dev` does on each (re)load: the folder becomes a new version of its agent on
// the dev stack, and when it is valid it is activated, the agent's schedules restart, and the
// agent's sessions that are not mid-turn move to it — so the next turn of an open conversation
// runs the edited folder (docs/cli.md, "dev"). A folder with errors changes nothing: the last
// good version, if any, keeps serving.
import type { PrismaClient } from "@prisma/client";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import { tarGzOf } from "@/cli/commands/admin";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import type { DurableRuntime } from "@/server/durable/runtime";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { poolOf } from "@/server/db";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";

export type DevLoad =
  | { status: "ready"; number: number; diagnostics: Diagnostic[]; movedSessions: number }
  | { status: "invalid"; number: number; diagnostics: Diagnostic[]; isServing: boolean };

/** The team of a dev stack: one, made on first start. */
export async function devTeamId(db: PrismaClient): Promise<string> {
  const team = await db.team.upsert({
    where: { slug: "local" },
    create: { slug: "local", name: "Local development" },
    update: {},
    select: { id: true },
  });
  return team.id;
}

export async function loadDevVersion(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  dataDir: string;
  teamId: string;
  slug: string;
  dir: string;
  models: ModelRouting;
}): Promise<DevLoad> {
  const { db, runtime, slug } = options;
  const version = await createAgentVersion({
    db,
    dataDir: options.dataDir,
    teamId: options.teamId,
    slug,
    archive: await tarGzOf(options.dir),
    models: options.models,
  });
  if (version.status !== "ready") {
    // An earlier good version serves on, if there is one: not on the first load of a broken folder.
    const agent = await db.agent.findUniqueOrThrow({
      where: { id: version.agentId },
      select: { activeVersionId: true },
    });
    return {
      status: "invalid",
      number: version.number,
      diagnostics: version.diagnostics,
      isServing: agent.activeVersionId !== null,
    };
  }
  await startSchedulers({ db, runtime, agentIds: [version.agentId] });
  // Sessions pin their version; in dev the edited folder is the point. A session with a turn
  // running keeps its version for that turn and moves on the next reload.
  const moved = await poolOf(db).query(
    `UPDATE sessions SET "agentVersionId" = $2
     WHERE "agentId" = $1 AND "agentVersionId" <> $2 AND "runningTurnId" IS NULL`,
    [version.agentId, version.id],
  );
  return {
    status: "ready",
    number: version.number,
    diagnostics: version.diagnostics,
    movedSessions: moved.rowCount ?? 0,
  };
}
