// The `agentfold` command.
import { parseArgs } from "node:util";
import { EnvError, parseEnv } from "@/env";
import { AppError } from "@/server/errors";
import { adminCommand } from "./commands/admin";
import { evalCommand } from "./commands/eval";
import { evalNewCommand } from "./commands/eval-new";
import { infoCommand } from "./commands/info";
import { manifestCommand, versionCommand } from "./commands/manifest";
import { initCommand } from "./commands/init";
import { secretCommand } from "./commands/secret";
import { slackCommand } from "./commands/slack";
import { validateCommand } from "./commands/validate";
import { PortInUseError } from "./start/ports";
import { startSupervisor } from "./start/supervisor";
import { UsageError } from "./usage-error";

const usage = `Usage: agentfold <command> [options]

Commands:
  start                      Start Postgres, Restate, the worker and the web app
                             (embedded unless configured; see docs/configuration.md)
  init <dir>                 Scaffold an agent folder (instructions, a tool, a skill)
  validate [--dir <dir>]     Check an agent folder; every problem is listed; exit 1 on errors
  manifest [--dir <dir>]     Print the folder's deployment metadata (its manifest) as JSON;
                             exit 1 when it has errors (listed on stderr)
  version [--json]           Print the package version
  info [--dir <dir>] [--slug <agent>] [--json]
                             Show the agent's tools, skills, subagents, hooks, schedules …
                             and its secrets (missing ones, when deployed here)
  eval [--dir <dir>] [--id <id>]… [--tag <tag>]… [--iterations N] [--json] [--junit <file>]
                             Run the folder's evals on a throwaway local stack; exit 0 when
                             every case passed, 1 when one failed (docs/evals.md)
       --list                Only list the case ids (and tags) that would run
       --url <instance> --token <t> [--slug <agent>]
                             Run the deployed agent's evals there instead
                             (or AGENTFOLD_URL and AGENTFOLD_TOKEN)
  eval new --from-session <id> --url <instance> --token <t> [--slug <agent>]
           [--dir <dir>] [--force]
                             Write an eval drafted from a session into <dir>/evals/

Headless bootstrap (against this installation's database; see docs/api.md):
  admin create --email <e> --password <p> --team <slug>
                             Create an admin user and a team they own
  team create --team <slug> [--name <name>]
                             Create a team with no members yet (for scripts; people join by invite)
  token create --team <slug> --actions <a,b> [--agents <slug,…>] [--expires-days N] [--name N]
                             Create a bearer token; prints it once
  token revoke --token <af_…>
                             Revoke a token: it answers 401 from then on
  deploy --dir <dir> --team <slug> [--slug <slug>]
                             Upload an agent folder as a new version
  agent allow-anonymous --team <slug> --slug <agent> --value on|off
                             Let callers without credentials use an agent (demos only)
  agent unattended-approvals --team <slug> --slug <agent> --value deny|park
                             What needsApproval calls do in task and eval sessions
  secret set <agent> NAME [--team <slug>]
                             Set or rotate a secret; the value is read from stdin
                             (printf '%s' "$VALUE" | agentfold secret set weather API_KEY)
  secret rm <agent> NAME     Remove a secret
  secret list <agent> [--json]
                             Secret names, when each was set, and which are missing
  slack manifest <agent> [--channel <id>] [--socket-mode] [--team <slug>]
                             The Slack app manifest for the agent's Slack channel (JSON to
                             paste into "Create New App → From a manifest")
  slack doctor <agent> [--channel <id>] [--json] [--team <slug>]
                             Check the channel's tokens, scopes, signing secret and URLs;
                             exit 1 when a check fails (docs/integrations.md)
  help                       Show this message`;

function log(line: string): void {
  process.stdout.write(`agentfold: ${line}\n`);
}

async function start(): Promise<number> {
  const config = parseEnv();
  let isShuttingDown = false;
  let supervisor: Awaited<ReturnType<typeof startSupervisor>> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    log(`${signal}: shutting down`);
    // Ctrl-C during start-up: stop whatever has started so far.
    void (supervisor ? supervisor.shutdown() : import("./start/child").then((m) => m.stopAllChildren())).then(() => {
      log("stopped");
      process.exit(0);
    });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  supervisor = await startSupervisor(config, log);
  return -1;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dir: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
      email: { type: "string" },
      password: { type: "string" },
      team: { type: "string" },
      actions: { type: "string" },
      agents: { type: "string" },
      name: { type: "string" },
      slug: { type: "string" },
      token: { type: "string" },
      value: { type: "string" },
      "expires-days": { type: "string" },
      channel: { type: "string" },
      "socket-mode": { type: "boolean", default: false },
      list: { type: "boolean", default: false },
      id: { type: "string", multiple: true, default: [] },
      tag: { type: "string", multiple: true, default: [] },
      iterations: { type: "string" },
      junit: { type: "string" },
      url: { type: "string" },
      "from-session": { type: "string" },
      force: { type: "boolean", default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") {
    console.log(usage);
    return 0;
  }
  switch (command) {
    case "start":
      return start();
    case "init":
      if (!rest[0]) throw new UsageError("init needs a folder: agentfold init <dir>");
      return initCommand({ dir: rest[0] });
    case "validate":
      return validateCommand({ dir: values.dir ?? rest[0] ?? "." });
    case "manifest":
      return manifestCommand({ dir: values.dir ?? rest[0] ?? "." });
    case "version":
      return versionCommand({ json: values.json ?? false });
    case "info":
      return infoCommand({ dir: values.dir ?? rest[0] ?? ".", json: values.json ?? false, slug: values.slug });
    case "admin":
    case "team":
    case "token": {
      const verbs = command === "token" ? ["create", "revoke"] : ["create"];
      if (!verbs.includes(rest[0] ?? ""))
        throw new UsageError(`${command} needs a verb: ${verbs.map((v) => `${command} ${v}`).join(" or ")}`);
      return adminCommand(`${command}:${rest[0]}`, values);
    }
    case "eval": {
      const remote = { url: values.url, token: values.token, slug: values.slug };
      if (rest[0] === "new") {
        if (!values["from-session"]) throw new UsageError("eval new needs --from-session <session id>");
        return evalNewCommand(
          { dir: values.dir ?? ".", sessionId: values["from-session"], isForced: values.force, ...remote },
          parseEnv(),
        );
      }
      if (rest[0] !== undefined)
        throw new UsageError(`eval takes no ${rest[0]}: agentfold eval [--dir <dir>] or eval new`);
      return evalCommand(
        {
          dir: values.dir ?? ".",
          isList: values.list,
          ids: values.id,
          tags: values.tag,
          iterations: values.iterations,
          isJson: values.json,
          junit: values.junit,
          ...remote,
        },
        parseEnv(),
      );
    }
    case "deploy":
      return adminCommand("deploy", values);
    case "agent":
      if (rest[0] === "allow-anonymous") return adminCommand("agent:allow-anonymous", values);
      if (rest[0] === "unattended-approvals") return adminCommand("agent:unattended-approvals", values);
      throw new UsageError("agent needs a verb: agent allow-anonymous | agent unattended-approvals");
    case "secret": {
      const [verb, slug, name] = rest;
      if (verb !== "set" && verb !== "rm" && verb !== "list")
        throw new UsageError("secret needs a verb: secret set | secret rm | secret list");
      if (!slug || (verb !== "list" && !name))
        throw new UsageError(
          `secret ${verb} needs ${verb === "list" ? "an agent" : "an agent and a name"}: agentfold secret ${verb} <agent>${verb === "list" ? "" : " NAME"}`,
        );
      return secretCommand({ verb, slug, name, team: values.team, json: values.json });
    }
    case "slack": {
      const [verb, slug] = rest;
      if (verb !== "doctor" && verb !== "manifest")
        throw new UsageError("slack needs a verb: slack doctor | slack manifest");
      if (!slug) throw new UsageError(`slack ${verb} needs an agent: agentfold slack ${verb} <agent>`);
      return slackCommand({
        verb,
        slug,
        channel: values.channel,
        team: values.team,
        json: values.json,
        socketMode: values["socket-mode"],
      });
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a long-running command (start) that exits on its own.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error)) {
      console.error(`agentfold: ${error.message}\n\n${usage}`);
      process.exit(2);
    }
    const known = error instanceof EnvError || error instanceof PortInUseError || error instanceof AppError;
    console.error(`agentfold: ${known ? "" : "failed: "}${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
