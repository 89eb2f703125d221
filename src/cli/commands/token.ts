// agentfold token create --actions a,b [--agents x,y] [--expires-days N] [--name n] [--team t] [--json]
// agentfold token revoke --token af_… [--json]
// Over HTTP when an instance resolves (POST /v1/tokens, /v1/tokens/revoke: a token makes tokens
// only within itself), else straight against this installation's database (--team needed).
import { type Env, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { jsonFlag, tokenFlag, urlFlag } from "@/cli/flags";
import { type Instance, normalUrl, resolveInstance } from "@/cli/remote/instance";
import { instanceClient } from "@/cli/remote/instance-client";
import { UsageError } from "@/cli/usage-error";
import { createdTokenAnswerSchema, revokedTokenAnswerSchema } from "@/server/tokens/schema";
import { adminCommand } from "./admin";

type CreateOptions = {
  actions: string;
  agents?: string;
  expiresDays?: string;
  name?: string;
  team?: string;
  isJson: boolean;
  url?: string;
  token?: string;
};

const list = (value: string | undefined) =>
  value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function daysOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1)
    throw new UsageError(`--expires-days must be a whole number of days, not '${value}'`);
  return days;
}

export async function tokenCreateCommand(options: CreateOptions, config: Env = parseEnv()): Promise<number> {
  const instance = resolveInstance(options, config);
  if (!instance) {
    if (!options.team)
      throw new UsageError(
        "token create needs --team <slug> on this installation's database, or an instance (agentfold login)",
      );
    return adminCommand("token:create", {
      team: options.team,
      actions: options.actions,
      agents: options.agents,
      "expires-days": options.expiresDays,
      name: options.name,
      json: options.isJson,
    });
  }
  if (options.team)
    throw new UsageError(
      "--team is for this installation's database; on an instance a token makes tokens of its own team",
    );
  const created = await instanceClient(instance).request("POST", "/v1/tokens", createdTokenAnswerSchema, {
    actions: list(options.actions),
    agents: list(options.agents),
    ...(options.name ? { name: options.name } : {}),
    ...(options.expiresDays ? { expiresInDays: daysOf(options.expiresDays) } : {}),
  });
  if (options.isJson) {
    const { ok: _, ...token } = created;
    process.stdout.write(`${JSON.stringify(token, null, 2)}\n`);
  } else process.stdout.write(`${created.token}\n`);
  // The only time the token is shown: on stdout alone, so scripts can capture it.
  process.stderr.write(
    `agentfold: token ${created.name} (${created.prefix}…) for ${created.agents.length ? created.agents.join(", ") : "every agent"}: ${created.actions.join(", ")}${created.expiresAt ? `, expires ${created.expiresAt}` : ""}\n`,
  );
  return 0;
}

export async function tokenRevokeCommand(
  options: { token: string; url?: string; isJson: boolean },
  config: Env = parseEnv(),
): Promise<number> {
  let instance: Instance | undefined;
  try {
    instance = resolveInstance({ url: options.url }, config);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // No token saved for the instance named: the one being revoked will do, holding it is enough.
    instance = { url: normalUrl((options.url ?? config.AGENTFOLD_URL)!), token: options.token };
  }
  if (!instance) return adminCommand("token:revoke", { token: options.token, json: options.isJson });
  await instanceClient(instance).request("POST", "/v1/tokens/revoke", revokedTokenAnswerSchema, {
    token: options.token,
  });
  process.stdout.write(
    options.isJson
      ? `${JSON.stringify({ ok: true, revoked: true, instance: instance.url }, null, 2)}\n`
      : `revoked on ${instance.url}\n`,
  );
  return 0;
}

export const tokenCommands = [
  defineCommand({
    name: "token create",
    group: "remote",
    summary: "Create a bearer token; prints it once, on stdout alone",
    details: "On an instance, within what the logged-in token may do (docs/cli.md#token).",
    flags: {
      actions: {
        type: "string",
        value: "<a,b>",
        required: true,
        description: "What it may do: sessions:read,sessions:write,agents:read … (docs/api.md)",
      },
      agents: { type: "string", value: "<slug,…>", description: "Only these agents (default: every agent)" },
      "expires-days": { type: "string", value: "<N>", description: "Expire after N days" },
      name: { type: "string", value: "<name>", description: "A name to recognise it by (default: cli)" },
      team: { type: "string", value: "<slug>", description: "The team, on this installation's database" },
      json: jsonFlag,
      url: urlFlag,
      token: tokenFlag,
    },
    examples: [
      "agentfold token create --actions sessions:read,sessions:write --agents hello --expires-days 30",
      "agentfold token create --team acme --actions '*'   # on the server, no login",
    ],
    run: ({ flags }) =>
      tokenCreateCommand({
        actions: flags.actions,
        agents: flags.agents,
        expiresDays: flags["expires-days"],
        name: flags.name,
        team: flags.team,
        isJson: flags.json,
        url: flags.url,
        token: flags.token,
      }),
  }),
  defineCommand({
    name: "token revoke",
    group: "remote",
    summary: "Revoke a token: it answers 401 from then on",
    flags: {
      token: { type: "string", value: "<af_…>", required: true, description: "The token itself" },
      json: jsonFlag,
      url: urlFlag,
    },
    examples: ['agentfold token revoke --token "$OLD_TOKEN"', 'agentfold token revoke --token "$OLD_TOKEN" --json'],
    run: ({ flags }) => tokenRevokeCommand({ token: flags.token, url: flags.url, isJson: flags.json }),
  }),
];
