// Starts a production build of Agentfold through the supervisor, on free ports with a temporary
// data directory, exactly as `npm start` would; then bootstraps it headless, as a self-hoster
// would: a team, two tokens, and the hello agent. Tests read what they need from
// AGENTFOLD_E2E_* variables.
import { e2eFakeSlackPort, e2eOAuthMcpPort } from "./ports";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../../src/cli/start/project";
import { startFakeSlack } from "../../src/testing/slack/fake-slack";
import { freeStackPorts, makeDataDir, spawnSupervisor } from "../../src/testing/supervisor-process";
import { fakeSlackKey, stackFile } from "./stack";

const run = promisify(execFile);

export default async function globalSetup(): Promise<void> {
  const dataDir = makeDataDir();
  const ports = await freeStackPorts();
  // Slack for the whole run, in this process (specs change it through its /_control/ endpoints);
  // global teardown closes it.
  const slack = await startFakeSlack({ port: e2eFakeSlackPort });
  (globalThis as Record<string, unknown>)[fakeSlackKey] = slack;
  // The OAuth MCP server e2e/ui/mcp-oauth.spec.ts runs is on this machine: let connections reach it.
  const supervisor = spawnSupervisor({
    ...ports,
    AGENTFOLD_DATA_DIR: dataDir,
    AGENTFOLD_MCP_PRIVATE_HOSTS: `127.0.0.1:${e2eOAuthMcpPort}`,
    SLACK_API_URL: slack.url,
  });
  // Its output, for tests that act on its processes (the web pid) and for failures.
  const logFile = path.join(dataDir, "supervisor.log");
  supervisor.child.stdout?.on("data", (chunk: Buffer) => fs.appendFileSync(logFile, chunk));
  try {
    const [, url] = await supervisor.waitForOutput(/Agentfold is ready: open (http:\/\/\S+)/, 300_000);
    fs.writeFileSync(stackFile, JSON.stringify({ pid: supervisor.child.pid, dataDir, url }));
    // The bootstrap reaches this stack's database, whatever a developer's saved logins say.
    const env = {
      ...process.env,
      AGENTFOLD_DATA_DIR: dataDir,
      POSTGRES_PORT: ports.POSTGRES_PORT,
      AGENTFOLD_CONFIG_DIR: path.join(dataDir, "cli-config"),
    };
    const cli = async (...args: string[]) =>
      (await run(process.execPath, [path.join(projectRoot, "bin", "agentfold.mjs"), ...args], { env })).stdout.trim();
    // A team with no people: the first person to sign up in the browser becomes the instance
    // admin (e2e/ui/dashboard.spec.ts).
    await cli("team", "create", "--team", "e2e");
    await cli("deploy", "--dir", path.join(projectRoot, "examples", "hello"), "--team", "e2e", "--slug", "hello");
    await cli("deploy", "--dir", path.join(projectRoot, "examples", "hello"), "--team", "e2e", "--slug", "other");
    await cli("deploy", "--dir", path.join(projectRoot, "examples", "hello"), "--team", "e2e", "--slug", "public-demo");
    await cli("agent", "allow-anonymous", "--team", "e2e", "--slug", "public-demo", "--value", "on");
    await cli("deploy", "--dir", path.join(projectRoot, "examples", "support-desk"), "--team", "e2e", "--slug", "desk");
    await cli("agent", "unattended-approvals", "--team", "e2e", "--slug", "desk", "--value", "deny");
    process.env.AGENTFOLD_E2E_URL = url;
    process.env.AGENTFOLD_E2E_DATA_DIR = dataDir;
    process.env.AGENTFOLD_E2E_SUPERVISOR_LOG = logFile;
    process.env.AGENTFOLD_E2E_PORTS = JSON.stringify(ports);
    process.env.AGENTFOLD_E2E_SLACK_URL = slack.url;
    process.env.AGENTFOLD_E2E_SLACK_BOT_TOKEN = slack.botToken;
    process.env.AGENTFOLD_E2E_TOKEN = await cli(
      "token",
      "create",
      "--team",
      "e2e",
      "--actions",
      "*",
      "--name",
      "owner",
    );
    process.env.AGENTFOLD_E2E_OTHER_TOKEN = await cli(
      "token",
      "create",
      "--team",
      "e2e",
      "--actions",
      "*",
      "--name",
      "someone-else",
    );
    process.env.AGENTFOLD_E2E_SCOPED_TOKEN = await cli(
      "token",
      "create",
      "--team",
      "e2e",
      "--actions",
      "sessions:read,sessions:write",
      "--agents",
      "other",
      "--name",
      "scoped",
    );
    process.env.AGENTFOLD_E2E_REVOKED_TOKEN = await cli(
      "token",
      "create",
      "--team",
      "e2e",
      "--actions",
      "*",
      "--name",
      "revoked",
    );
    await cli("token", "revoke", "--token", process.env.AGENTFOLD_E2E_REVOKED_TOKEN);
    process.env.AGENTFOLD_E2E_EXPIRED_TOKEN = await cli(
      "token",
      "create",
      "--team",
      "e2e",
      "--actions",
      "*",
      "--expires-days=-1",
      "--name",
      "expired",
    );
  } catch (error) {
    await supervisor.stop("SIGTERM");
    await slack.close();
    throw error;
  }
  // The supervisor outlives this function (the runner process keeps reading its output);
  // global teardown stops it by pid.
}
