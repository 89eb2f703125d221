// Agent secrets from the command line: over HTTP when an instance resolves (--url/--token,
// AGENTFOLD_URL/AGENTFOLD_TOKEN, the saved login; /<slug>/v1/secrets), else straight against this
// installation's database:
//   printf '%s' "$KEY" | agentfold secret set weather API_KEY [--team acme]
//   agentfold secret rm weather API_KEY
//   agentfold secret list weather [--json]
// A value is read from stdin, never from an argument (arguments show in `ps` and shell history),
// and is never printed.
import { parseEnv, secretKey } from "@/env";
import { type Instance, resolveInstance } from "@/cli/remote/instance";
import { instanceClient } from "@/cli/remote/instance-client";
import { secretListAnswerSchema, secretRemovedAnswerSchema, secretSetAnswerSchema } from "@/server/secrets/schema";
import { getAgentId } from "@/server/agents/get-agent-id";
import { AppError } from "@/server/errors";
import { listSecrets } from "@/server/secrets/list-secrets";
import { removeSecret } from "@/server/secrets/remove-secret";
import { setSecret } from "@/server/secrets/set-secret";
import { database } from "./admin";
import { defineCommand } from "@/cli/command";
import { jsonFlag, teamSlugFlag, tokenFlag, urlFlag } from "@/cli/flags";

export type SecretCommand = {
  verb: "set" | "rm" | "list";
  slug: string;
  name?: string;
  team?: string;
  json?: boolean;
  url?: string;
  token?: string;
};

export async function secretCommand(command: SecretCommand, stdin: NodeJS.ReadStream = process.stdin): Promise<number> {
  const instance = resolveInstance(command, parseEnv());
  if (instance) return remoteSecretCommand(instance, command, () => readValue(stdin, command.name ?? ""));
  const { db, config } = database();
  try {
    const agentId = await getAgentId({ db, slug: command.slug, teamSlug: command.team });
    if (command.verb === "list") {
      const listed = await listSecrets({ db, agentId });
      if (command.json) console.log(JSON.stringify(listed, null, 2));
      else console.log(describeSecrets(command.slug, listed));
      return 0;
    }
    const name = command.name;
    if (!name)
      throw new AppError(
        "invalid_input",
        `secret ${command.verb} needs a name: agentfold secret ${command.verb} ${command.slug} NAME`,
      );
    if (command.verb === "rm") {
      await removeSecret({ db, agentId, name });
      console.log(`${name} removed from ${command.slug}`);
      return 0;
    }
    const value = await readValue(stdin, name);
    const set = await setSecret({ db, key: secretKey(config), agentId, name, value, updatedBy: "the CLI" });
    console.log(`${name} ${set.isNew ? "set" : "rotated"} on ${command.slug}`);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

/** The same verbs through the agent's /v1/secrets routes (docs/api.md, "Secrets"); the token's team. */
async function remoteSecretCommand(
  instance: Instance,
  command: SecretCommand,
  readSecret: () => Promise<string>,
): Promise<number> {
  const client = instanceClient(instance, `/${encodeURIComponent(command.slug)}/v1`);
  if (command.verb === "list") {
    const { ok: _, ...listed } = await client.request("GET", "/secrets", secretListAnswerSchema);
    if (command.json) console.log(JSON.stringify(listed, null, 2));
    else console.log(describeSecrets(command.slug, listed));
    return 0;
  }
  const path = `/secrets/${encodeURIComponent(command.name ?? "")}`;
  if (command.verb === "rm") {
    await client.request("DELETE", path, secretRemovedAnswerSchema);
    console.log(`${command.name} removed from ${command.slug} on ${instance.url}`);
    return 0;
  }
  const set = await client.request("PUT", path, secretSetAnswerSchema, { value: await readSecret() });
  console.log(`${command.name} ${set.isNew ? "set" : "rotated"} on ${command.slug} on ${instance.url}`);
  return 0;
}

function describeSecrets(slug: string, listed: Awaited<ReturnType<typeof listSecrets>>): string {
  const lines = listed.secrets.map(
    (s) =>
      `  ${s.name}  set ${s.updatedAt}${s.updatedBy ? ` by ${s.updatedBy}` : ""}${s.isDeclared ? "" : "  (not expected by the active version)"}`,
  );
  return [
    listed.secrets.length
      ? `${slug}: ${listed.secrets.length} secret${listed.secrets.length === 1 ? "" : "s"}`
      : `${slug}: no secrets`,
    ...lines,
    ...(listed.missing.length ? [`missing (expected by the active version): ${listed.missing.join(", ")}`] : []),
  ].join("\n");
}

/** The whole of a piped stdin, less one trailing newline (`echo` adds one); at a terminal, one
 * line typed without echo. */
async function readValue(stdin: NodeJS.ReadStream, name: string): Promise<string> {
  if (stdin.isTTY) return readHiddenLine(stdin, name);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

function readHiddenLine(stdin: NodeJS.ReadStream, name: string): Promise<string> {
  process.stderr.write(`value of ${name} (not shown): `);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (text: string) => {
      for (const char of text) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new AppError("invalid_input", "cancelled"));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on("data", onData);
  });
}

const agentArg = { name: "agent", required: true, description: "The agent's slug" };
const nameArg = { name: "name", required: true, description: "The secret's name, e.g. API_KEY" };

export const secretCommands = [
  defineCommand({
    name: "secret set",
    group: "integrations",
    summary: "Set or rotate a secret; the value is read from stdin, never from an argument",
    args: [agentArg, nameArg],
    flags: { team: teamSlugFlag, url: urlFlag, token: tokenFlag },
    examples: ["printf '%s' \"$VALUE\" | agentfold secret set weather API_KEY"],
    run: ({ flags, args }) => secretCommand({ verb: "set", slug: args[0]!, name: args[1], ...flags }),
  }),
  defineCommand({
    name: "secret rm",
    group: "integrations",
    summary: "Remove a secret",
    args: [agentArg, nameArg],
    flags: { team: teamSlugFlag, url: urlFlag, token: tokenFlag },
    examples: ["agentfold secret rm weather API_KEY"],
    run: ({ flags, args }) => secretCommand({ verb: "rm", slug: args[0]!, name: args[1], ...flags }),
  }),
  defineCommand({
    name: "secret list",
    group: "integrations",
    summary: "Secret names, when each was set, and which are missing",
    args: [agentArg],
    flags: { team: teamSlugFlag, json: jsonFlag, url: urlFlag, token: tokenFlag },
    examples: ["agentfold secret list weather --json"],
    run: ({ flags, args }) => secretCommand({ verb: "list", slug: args[0]!, ...flags }),
  }),
];
