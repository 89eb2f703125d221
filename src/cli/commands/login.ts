// agentfold login <url> [--token <t>] · agentfold logout [url] · agentfold whoami [--json]
// A login is saved in <config dir>/credentials.json (0600) and becomes the instance that deploy,
// token, secret and the other remote commands talk to (docs/cli.md, "Instances").
import { type Env, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { jsonFlag, tokenFlag, urlFlag } from "@/cli/flags";
import { deviceLogin } from "@/cli/remote/device-login";
import { type Instance, normalUrl, readCredentials, resolveInstance, writeCredentials } from "@/cli/remote/instance";
import { instanceClient } from "@/cli/remote/instance-client";
import { AppError } from "@/server/errors";
import { type CallerIdentity, callerIdentitySchema, revokedTokenAnswerSchema } from "@/server/tokens/schema";

const say = (line: string) => process.stderr.write(`agentfold: ${line}\n`);

const whoamiOf = (instance: Instance) => instanceClient(instance).request("GET", "/v1/whoami", callerIdentitySchema);

function describe(url: string, identity: CallerIdentity): string[] {
  if (identity.kind === "user")
    return [
      `${url}: signed in as ${identity.user.email ?? identity.user.name}`,
      `teams: ${identity.teams.map((t) => t.slug).join(", ")}`,
    ];
  const { token, team } = identity;
  return [
    `${url}: token ${token.name} (${token.prefix}…) of team ${team.slug}${token.createdBy ? `, made by ${token.createdBy}` : ""}`,
    `actions: ${token.actions.join(", ")}`,
    `agents: ${token.agents.length ? token.agents.join(", ") : "every agent of the team"}`,
    `expires: ${token.expiresAt ?? "never"}`,
  ];
}

function save(url: string, token: string, config: Env): void {
  const saved = readCredentials(config);
  saved.instances[url] = { token, savedAt: new Date().toISOString() };
  saved.current = url;
  writeCredentials(saved, config);
}

export async function loginCommand(
  options: { url: string; token?: string; isJson: boolean; isBrowserWanted: boolean },
  config: Env = parseEnv(),
): Promise<number> {
  const url = normalUrl(options.url);
  let token = options.token;
  if (!token) token = (await deviceLogin({ url, config, isBrowserWanted: options.isBrowserWanted, say })).token;
  // A token given is checked before it is saved: a typo is an error now, not on the next deploy.
  const identity = await whoamiOf({ url, token });
  if (identity.kind !== "token") throw new AppError("invalid_input", "that is not a bearer token");
  save(url, token, config);
  if (options.isJson) process.stdout.write(`${JSON.stringify({ instance: url, ...identity }, null, 2)}\n`);
  else process.stdout.write(`logged in to ${url} as ${identity.token.name} (team ${identity.team.slug})\n`);
  return 0;
}

export async function logoutCommand(options: { url?: string }, config: Env = parseEnv()): Promise<number> {
  const saved = readCredentials(config);
  const url = options.url ? normalUrl(options.url) : saved.current;
  const login = url ? saved.instances[url] : undefined;
  if (!url || !login) {
    say(url ? `not logged in to ${url}` : "not logged in anywhere");
    return 0;
  }
  delete saved.instances[url];
  if (saved.current === url) saved.current = Object.keys(saved.instances)[0];
  writeCredentials(saved, config);
  try {
    await instanceClient({ url, token: login.token }).request("POST", "/v1/tokens/revoke", revokedTokenAnswerSchema, {
      token: login.token,
    });
    process.stdout.write(`logged out of ${url}; its token is revoked\n`);
  } catch (error) {
    // Forgotten here all the same; an unreachable instance keeps the token until it expires.
    process.stdout.write(`logged out of ${url}\n`);
    say(`the token was not revoked there: ${(error as Error).message}`);
  }
  return 0;
}

export async function whoamiCommand(
  options: { url?: string; token?: string; isJson: boolean },
  config: Env = parseEnv(),
): Promise<number> {
  const instance = resolveInstance(options, config);
  if (!instance) throw new AppError("unauthorized", "not logged in: agentfold login <url>, or --url and --token");
  const identity = await whoamiOf(instance);
  if (options.isJson) process.stdout.write(`${JSON.stringify({ instance: instance.url, ...identity }, null, 2)}\n`);
  else process.stdout.write(`${describe(instance.url, identity).join("\n")}\n`);
  return 0;
}

export const loginCommands = [
  defineCommand({
    name: "login",
    group: "remote",
    summary: "Log in to an instance: approve a code on its dashboard, or give --token; saved for later commands",
    details: "docs/cli.md#login",
    args: [{ name: "url", required: true, description: "The instance, e.g. https://agents.example.com" }],
    flags: {
      token: { type: "string", value: "<af_…>", description: "A bearer token to save (checked first)" },
      "no-browser": { type: "boolean", description: "Only print the page to open, never open a browser" },
      json: jsonFlag,
    },
    examples: ["agentfold login https://agents.example.com", 'agentfold login https://agents.example.com --token "$T"'],
    run: ({ flags, args }) =>
      loginCommand({ url: args[0]!, token: flags.token, isJson: flags.json, isBrowserWanted: !flags["no-browser"] }),
  }),
  defineCommand({
    name: "logout",
    group: "remote",
    summary: "Forget an instance's saved login (the current one by default) and revoke its token there",
    details: "docs/cli.md#logout",
    args: [{ name: "url", description: "The instance (default: the current login)" }],
    flags: {},
    examples: ["agentfold logout", "agentfold logout https://agents.example.com"],
    run: ({ args }) => logoutCommand({ url: args[0] }),
  }),
  defineCommand({
    name: "whoami",
    group: "remote",
    summary: "Which instance and token the remote commands use: team, actions, agents, expiry",
    details: "docs/cli.md#whoami",
    flags: { json: jsonFlag, url: urlFlag, token: tokenFlag },
    examples: ["agentfold whoami", "agentfold whoami --json"],
    run: ({ flags }) => whoamiCommand({ url: flags.url, token: flags.token, isJson: flags.json }),
  }),
];
