// The agent's way into the GitHub API (docs/integrations.md, "GitHub"): as its GitHub App's
// installation (GITHUB_APP_ID and GITHUB_PRIVATE_KEY; @octokit/app mints the installation tokens
// and keeps them until they near expiry), else with a token (GITHUB_TOKEN, e.g. a fine-grained
// PAT), at GITHUB_API_URL or api.github.com. The secrets are the platform's to read.
import crypto from "node:crypto";
import { App } from "@octokit/app";
import { Octokit } from "@octokit/rest";
import { AppError } from "@/server/errors";
import { processLogger } from "@/server/logging/logger";
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";
import { githubSecretNames } from "./github-pack";

export const defaultGitHubApiUrl = "https://api.github.com";

export type GitHubRepo = { owner: string; repo: string };

const clients = new Map<string, Octokit | App>();

/** One App (and its token cache) or one client per credential and address, the oldest dropped. */
function kept<T extends Octokit | App>(key: string, make: () => T): T {
  let client = clients.get(key) as T | undefined;
  if (!client) {
    client = make();
    if (clients.size >= 100) clients.delete(clients.keys().next().value!);
    clients.set(key, client);
  }
  return client;
}

const digest = (value: string) => crypto.createHash("sha256").update(value).digest("hex");

const ignore = () => undefined;
/** A refusal is the caller's to handle (agent code reads a 404 as such): only warnings are told. */
const log = {
  debug: ignore,
  info: ignore,
  warn: (message: string) => processLogger().warn({ github: true }, message),
  error: ignore,
};

function octokitClass(apiUrl: string) {
  return Octokit.defaults({ baseUrl: apiUrl.replace(/\/+$/, ""), userAgent: "agentfold", log });
}

export async function githubOctokit(options: {
  secrets: PackSecretReader;
  agentId: string;
  apiUrl?: string;
  /** The App installation a webhook named; else the one installed on `repo`, if known. */
  installationId?: number;
  repo?: GitHubRepo;
}): Promise<Octokit> {
  const apiUrl = options.apiUrl ?? defaultGitHubApiUrl;
  const { appId, privateKey, token } = githubSecretNames;
  const values = await options.secrets(options.agentId, [appId, privateKey, token]);
  if (values[appId] && values[privateKey]) {
    // A key pasted on one line keeps its line breaks as `\n`.
    const key = values[privateKey].replace(/\\n/g, "\n");
    const appKey = `app\n${apiUrl}\n${values[appId]}\n${digest(key)}`;
    const app = kept(appKey, () => {
      return new App({ appId: values[appId]!, privateKey: key, Octokit: octokitClass(apiUrl), log });
    });
    const installationId = options.installationId ?? (await installationOf(app, appKey, options.repo));
    if (installationId !== undefined) return (await app.getInstallationOctokit(installationId)) as Octokit;
  }
  if (values[token]) {
    const PlainOctokit = octokitClass(apiUrl);
    return kept(`token\n${apiUrl}\n${digest(values[token])}`, () => new PlainOctokit({ auth: values[token] }));
  }
  throw new AppError(
    "unavailable",
    values[appId] && values[privateKey]
      ? "the GitHub App has no installation known for this call: a session a GitHub webhook started knows it, or name a repository the App is installed on (/repos/{owner}/{repo}/…), or set GITHUB_TOKEN"
      : `set the agent's secrets ${appId} and ${privateKey} (a GitHub App) or ${token}: agentfold secret set <agent> NAME`,
  );
}

/** Installations found by repository, kept a few minutes: a tool makes many calls in a row. */
const installations = new Map<string, { at: number; id: Promise<number | undefined> }>();
const installationTtlMs = 5 * 60_000;

/** The App's installation on a repository (GET /repos/{owner}/{repo}/installation, as the App). */
function installationOf(app: App, appKey: string, repo: GitHubRepo | undefined): Promise<number | undefined> {
  if (!repo) return Promise.resolve(undefined);
  const key = `${appKey}\n${repo.owner}/${repo.repo}`.toLowerCase();
  const found = installations.get(key);
  if (found && Date.now() - found.at < installationTtlMs) return found.id;
  const id = app.octokit.request("GET /repos/{owner}/{repo}/installation", repo).then(
    ({ data }) => data.id,
    (error: unknown) => {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    },
  );
  id.catch(() => installations.delete(key));
  if (installations.size >= 1_000) installations.delete(installations.keys().next().value!);
  installations.set(key, { at: Date.now(), id });
  return id;
}
