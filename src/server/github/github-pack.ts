// A GitHub pack channel as the platform works with it (docs/integrations.md, "GitHub"): its
// settings from the manifest (githubChannel's summary: handlers are listed by name), and the
// names of the agent secrets it reads. The platform reads those itself; they never reach the
// sandbox, and the agent need not declare them.
export type GitHubHandlerName = "onPullRequest" | "onIssue" | "onComment";

export type GitHubPackConfig = {
  botName?: string;
  /** `owner/repo`; empty: every repository the App (or webhook) sends. */
  repos: string[];
  context: string[];
  progress?: { commitStatus?: boolean; banner?: boolean };
  /** false: the reply is not posted (the agent's tools reply themselves). */
  deliverReplies?: boolean;
  /** The handlers the channel defines; absent from manifests made before the sandbox listed them. */
  handlers?: GitHubHandlerName[];
};

export type GitHubPack = { channelId: string; config: GitHubPackConfig };

export function githubPackOf(channel: { name: string; config?: unknown }): GitHubPack {
  const config = (channel.config ?? {}) as Partial<GitHubPackConfig>;
  return {
    channelId: channel.name,
    config: { ...config, repos: config.repos ?? [], context: config.context ?? [] },
  };
}

export const githubSecretNames = {
  webhookSecret: "GITHUB_WEBHOOK_SECRET",
  appId: "GITHUB_APP_ID",
  privateKey: "GITHUB_PRIVATE_KEY",
  token: "GITHUB_TOKEN",
} as const;

/** The logins a bot posts as: `name`, and `name[bot]` as a GitHub App's comments are signed. */
export function isBotLogin(pack: GitHubPack, login: string): boolean {
  const bot = pack.config.botName?.toLowerCase().replace(/\[bot\]$/, "");
  const who = login.toLowerCase().replace(/\[bot\]$/, "");
  return bot !== undefined && bot === who;
}

/** Marks what the platform posts, so the comment events it causes never wake the agent. */
export const postedMarker = "<!-- agentfold:";
