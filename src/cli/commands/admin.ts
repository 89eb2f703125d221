// Headless bootstrap for scripts and self-hosters, straight against the database:
//   agentfold admin create --email a@b.c --password … --team acme
//   agentfold team create --team acme [--name Acme]
//   agentfold token create|revoke … and agentfold deploy … without an instance (token.ts, deploy.ts)
//   agentfold agent allow-anonymous --team acme --slug my-agent --value on|off
//   agentfold agent unattended-approvals --team acme --slug my-agent --value deny|park
// Each takes --json: one JSON document on stdout instead of the sentence (docs/cli.md).
import { parseEnv } from "@/env";
import { packProject } from "@/agents/bundle/pack-project";
import { embeddedDatabaseUrl } from "@/cli/start/postgres";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { AppError } from "@/server/errors";
import { createAdmin } from "@/server/teams/create-admin";
import { createTeam } from "@/server/teams/create-team";
import { createToken } from "@/server/tokens/create-token";
import { revokeTokenBySecret } from "@/server/tokens/revoke-token";
import { defineCommand } from "@/cli/command";
import { jsonFlag } from "@/cli/flags";

/** A new active version replaces its agent's schedules at once, when the platform is running. */
export async function restartSchedules(
  db: ReturnType<typeof createDb>,
  config: ReturnType<typeof parseEnv>,
  agentId: string,
): Promise<void> {
  const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  try {
    await startSchedulers({ db, runtime, agentIds: [agentId] });
  } catch {
    console.log("schedules: the platform is not running; they start with it");
  }
}

export type AdminOptions = Record<string, string | string[] | boolean | undefined>;

/** The database of this installation: DATABASE_URL, or the embedded one under the data directory. */
export function database(config = parseEnv()) {
  if (config.DATABASE_URL) return { db: createDb(config.DATABASE_URL), config };
  const url = embeddedDatabaseUrl(config.dataDir, config.POSTGRES_PORT);
  if (!url) throw new Error(`no DATABASE_URL and no embedded database in ${config.dataDir}; run \`npm start\` first`);
  return { db: createDb(url), config };
}

function required(options: AdminOptions, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || !value) throw new AppError("invalid_input", `--${name} is required`);
  return value;
}

export async function teamIdOf(db: ReturnType<typeof createDb>, slug: string): Promise<string> {
  const team = await db.team.findUnique({ where: { slug }, select: { id: true } });
  if (!team) throw new AppError("not_found", `no team '${slug}'; create it with agentfold admin create`);
  return team.id;
}

/** What deploy uploads and validate checks: the folder, or the project above it (pack-project.ts). */
export async function tarGzOf(dir: string): Promise<Buffer> {
  return (await packProject(dir)).archive;
}

/** What a command did: the sentence a person reads, or with --json the document a script parses. */
function answer(options: AdminOptions, text: string, json: Record<string, unknown>): void {
  process.stdout.write(options.json === true ? `${JSON.stringify({ ok: true, ...json }, null, 2)}\n` : `${text}\n`);
}

export async function adminCommand(action: string, options: AdminOptions): Promise<number> {
  const { db } = database();
  try {
    if (action === "admin:create") {
      const result = await createAdmin({
        db,
        email: required(options, "email"),
        password: required(options, "password"),
        teamSlug: required(options, "team"),
      });
      answer(options, `admin ${options.email} owns team ${options.team} (user ${result.userId})`, {
        userId: result.userId,
        email: options.email,
        team: options.team,
      });
    } else if (action === "team:create") {
      const slug = required(options, "team");
      const name = typeof options.name === "string" ? options.name : slug;
      const team = await createTeam({ db, slug, name });
      answer(options, `team ${team.slug} created`, { team: { slug: team.slug, name } });
    } else if (action === "token:create") {
      const days = options["expires-days"] ? Number(options["expires-days"]) : undefined;
      const token = {
        name: typeof options.name === "string" ? options.name : "cli",
        actions: required(options, "actions").split(","),
        agents: typeof options.agents === "string" ? options.agents.split(",") : [],
        expiresAt: days ? new Date(Date.now() + days * 86_400_000) : undefined,
      };
      const created = await createToken({
        db,
        teamId: await teamIdOf(db, required(options, "team")),
        ...token,
        agentSlugs: token.agents,
      });
      // The only time the token is shown: on stdout alone, so scripts can capture it. The JSON is
      // the shape of `token create --json` on an instance.
      const shown = { token: created.token, id: created.id, prefix: created.prefix, ...token };
      if (options.json === true)
        process.stdout.write(
          `${JSON.stringify({ ...shown, expiresAt: token.expiresAt?.toISOString() ?? null }, null, 2)}\n`,
        );
      else console.log(created.token);
    } else if (action === "token:revoke") {
      await revokeTokenBySecret({ db, token: required(options, "token") });
      answer(options, "revoked", { revoked: true, instance: null });
    } else if (action === "agent:allow-anonymous") {
      const slug = required(options, "slug");
      const allowAnonymous = required(options, "value") === "on";
      const { count } = await db.agent.updateMany({
        where: { slug, team: { slug: required(options, "team") } },
        data: { allowAnonymous },
      });
      if (count === 0) throw new AppError("not_found", `no agent '${slug}' in team '${options.team}'`);
      answer(
        options,
        `${slug}: anonymous access ${allowAnonymous ? "on (demo: every caller without credentials shares one principal)" : "off"}`,
        { team: options.team, slug, allowAnonymous },
      );
    } else if (action === "agent:unattended-approvals") {
      const slug = required(options, "slug");
      const value = required(options, "value");
      if (value !== "deny" && value !== "park") throw new AppError("invalid_input", "--value must be deny or park");
      const { count } = await db.agent.updateMany({
        where: { slug, team: { slug: required(options, "team") } },
        data: { unattendedApprovals: value },
      });
      if (count === 0) throw new AppError("not_found", `no agent '${slug}' in team '${options.team}'`);
      answer(
        options,
        `${slug}: approvals in sessions with nobody to ask are ${value === "deny" ? "denied at once" : "parked until someone decides"}`,
        { team: options.team, slug, unattendedApprovals: value },
      );
    }
    return 0;
  } finally {
    await db.$disconnect();
  }
}

const teamFlag = { type: "string", value: "<slug>", required: true, description: "The team's slug" } as const;

export const bootstrapCommands = [
  defineCommand({
    name: "admin create",
    group: "bootstrap",
    summary: "Create an admin user and a team they own",
    flags: {
      email: { type: "string", value: "<email>", required: true, description: "The admin's email address" },
      password: { type: "string", value: "<password>", required: true, description: "The admin's password" },
      team: teamFlag,
      json: jsonFlag,
    },
    examples: ["agentfold admin create --email you@example.com --password '…' --team acme"],
    run: ({ flags }) => adminCommand("admin:create", flags),
  }),
  defineCommand({
    name: "team create",
    group: "bootstrap",
    summary: "Create a team with no members yet (for scripts; people join by invite)",
    flags: {
      team: teamFlag,
      name: { type: "string", value: "<name>", description: "Its display name" },
      json: jsonFlag,
    },
    examples: ["agentfold team create --team ops --name Operations"],
    run: ({ flags }) => adminCommand("team:create", flags),
  }),
  defineCommand({
    name: "agent allow-anonymous",
    group: "bootstrap",
    summary: "Let callers without credentials use an agent (demos only)",
    flags: {
      team: teamFlag,
      slug: { type: "string", value: "<agent>", required: true, description: "The agent" },
      value: { type: "string", value: "on|off", required: true, description: "on or off" },
      json: jsonFlag,
    },
    examples: ["agentfold agent allow-anonymous --team acme --slug hello --value on"],
    run: ({ flags }) => adminCommand("agent:allow-anonymous", flags),
  }),
  defineCommand({
    name: "agent unattended-approvals",
    group: "bootstrap",
    summary: "What needsApproval calls do in task and eval sessions: denied at once, or parked",
    flags: {
      team: teamFlag,
      slug: { type: "string", value: "<agent>", required: true, description: "The agent" },
      value: { type: "string", value: "deny|park", required: true, description: "deny or park" },
      json: jsonFlag,
    },
    examples: ["agentfold agent unattended-approvals --team acme --slug hello --value park"],
    run: ({ flags }) => adminCommand("agent:unattended-approvals", flags),
  }),
];
