// Which Agentfold instance a command talks to, and with what token: --url/--token, else
// AGENTFOLD_URL/AGENTFOLD_TOKEN, else what `agentfold login` saved (docs/cli.md, "Instances").
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Env } from "@/env";
import { UsageError } from "@/cli/usage-error";

export type Instance = { url: string; token: string };

const savedSchema = z.object({
  current: z.string().optional(),
  instances: z.record(z.string(), z.object({ token: z.string(), savedAt: z.string() })).default({}),
});
export type SavedCredentials = z.infer<typeof savedSchema>;

type CliConfig = Pick<Env, "AGENTFOLD_URL" | "AGENTFOLD_TOKEN" | "configDir">;

export const credentialsFile = (config: Pick<Env, "configDir">) => path.join(config.configDir, "credentials.json");

export function readCredentials(config: Pick<Env, "configDir">): SavedCredentials {
  const file = credentialsFile(config);
  if (!fs.existsSync(file)) return { instances: {} };
  const parsed = savedSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not what agentfold login writes; remove it and log in again`);
  return parsed.data;
}

/** Written whole, readable by this user alone (0600, in a 0700 folder). */
export function writeCredentials(saved: SavedCredentials, config: Pick<Env, "configDir">): void {
  const file = credentialsFile(config);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** An instance's address as it is saved and compared: no trailing slash. */
export function normalUrl(url: string): string {
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`an instance is an http(s) address, not '${url}'`);
  return url.replace(/\/+$/, "");
}

/** The instance of the flags, the environment, or (unless `isNamedOnly`: commands that run
 * locally without one) the last login; undefined when none is named. The token of a named
 * instance may come from its login. */
export function resolveInstance(
  flags: { url?: string; token?: string },
  config: CliConfig,
  { isNamedOnly = false }: { isNamedOnly?: boolean } = {},
): Instance | undefined {
  const named = flags.url ?? config.AGENTFOLD_URL;
  const saved = readCredentials(config);
  const url = named ? normalUrl(named) : isNamedOnly ? undefined : saved.current;
  if (!url) return undefined;
  const token = flags.token ?? config.AGENTFOLD_TOKEN ?? saved.instances[url]?.token;
  if (!token) throw new UsageError(`no token for ${url}: agentfold login ${url}, --token <t>, or AGENTFOLD_TOKEN`);
  return { url, token };
}
