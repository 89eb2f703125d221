// `agentfold/channels/github`: the prebuilt GitHub channel
// (docs/agent-folders.md, "The `define*` helpers"). A pull request is one session, keyed
// `pr:owner/repo#N`. Cursor pulls events through `cursorAccount`; Agentfold receives them by
// webhook, so `cursorAccount.repos` is read as the list of watched repos.
import { z } from "zod";
import type { Descriptor } from "../descriptor";
import type { HostServices } from "../host";
import type { Principal } from "../types";
import { define, functionSchema } from "../validation";

export type GitHubRepoRef = { owner: string; name: string };

/** [inferred] What the handlers learn about the delivery. */
export type GitHubEventContext = {
  event: string;
  deliveryId?: string;
  repo: GitHubRepoRef;
  sender: { login: string; id: number };
  host: HostServices;
};

/** [inferred] fields beyond `action` and `draft`. */
export type GitHubPullRequest = {
  action: string;
  number: number;
  title: string;
  body: string | null;
  draft: boolean;
  htmlUrl: string;
  headSha: string;
  headRef: string;
  baseRef: string;
  author: string;
};

/** Null ignores the event; otherwise the turn runs as `auth`. */
export type GitHubTurnDecision = { auth: Principal } | null;

type Handler<T> = (ctx: GitHubEventContext, payload: T) => GitHubTurnDecision | Promise<GitHubTurnDecision>;

export type GitHubChannelConfig = {
  /** The agent's own login, so its comments do not re-trigger it. */
  botName?: string;
  repos?: string[];
  cursorAccount?: { repos: string[] };
  onPullRequest?: Handler<GitHubPullRequest>;
  /** [inferred] */
  onIssue?: Handler<{ action: string; number: number; title: string; body: string | null; author: string }>;
  /** [inferred] */
  onComment?: Handler<{
    action: string;
    issueNumber: number;
    isPullRequest: boolean;
    body: string;
    author: string;
  }>;
  /** Merge-box commit status and a sticky progress banner (`reactions`: ignored here). */
  progress?: { commitStatus?: boolean; banner?: boolean; reactions?: unknown };
  /** Post the turn's reply as a comment; false leaves replying to the agent's own tools. */
  deliverReplies?: boolean;
  /** Cursor's hosted event filter: ignored here, where the GitHub App's subscription decides. */
  webhookEvents?: unknown;
  /** Extra context lines for every turn (e.g. from `prompt.lines`). */
  context?: string[];
};

export type GitHubChannelDescriptor = Descriptor<
  "channel",
  Omit<GitHubChannelConfig, "cursorAccount" | "repos" | "context"> & {
    pack: "github";
    repos: string[];
    context: string[];
    /** cursorAccount was given: `validate` says it needs a GitHub App here. */
    hasCursorAccount?: true;
  }
>;

const repoName = z.string().regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, 'expected "owner/repo"');

const githubConfigSchema = z
  .strictObject({
    botName: z.string().min(1).optional(),
    repos: z.array(repoName).optional(),
    cursorAccount: z.strictObject({ repos: z.array(repoName) }).optional(),
    onPullRequest: functionSchema.optional(),
    onIssue: functionSchema.optional(),
    onComment: functionSchema.optional(),
    progress: z
      .strictObject({
        commitStatus: z.boolean().optional(),
        banner: z.boolean().optional(),
        // Accepted so Cursor projects validate; `validate` says it is ignored here.
        reactions: z.unknown().optional(),
      })
      .optional(),
    context: z.array(z.string()).default([]),
    /** Whether the turn's reply is posted as a comment (default true). */
    deliverReplies: z.boolean().optional(),
    /** Cursor's hosted event filter; here the GitHub App's own subscription decides (ignored). */
    webhookEvents: z.unknown().optional(),
  })
  .transform(({ cursorAccount, repos, ...rest }) => ({
    ...rest,
    pack: "github" as const,
    repos: [...new Set([...(repos ?? []), ...(cursorAccount?.repos ?? [])])],
    ...(cursorAccount ? { hasCursorAccount: true as const } : {}),
  }));

export function githubChannel(config: GitHubChannelConfig = {}): GitHubChannelDescriptor {
  return define("channel", "githubChannel", githubConfigSchema, config);
}

/** Run the turn as the person who triggered the event. */
export function defaultGitHubAuth(ctx: Pick<GitHubEventContext, "sender">): Principal {
  // The numeric id is stable; logins can be renamed.
  return {
    kind: "user",
    id: `github:${ctx.sender.id}`,
    attributes: { github_login: ctx.sender.login, github_id: String(ctx.sender.id) },
  };
}

export type GitHubPrKey = { owner: string; repo: string; number: number };

export function githubPrContinuationKey({ owner, repo, number }: GitHubPrKey): string {
  return `pr:${owner}/${repo}#${number}`;
}

/** Reads `pr:owner/repo#N`; null for anything else. */
export function parseGitHubPrContinuationKey(key: string): GitHubPrKey | null {
  const match = /^pr:([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)#([1-9]\d*)$/.exec(key);
  if (!match) return null;
  return { owner: match[1] as string, repo: match[2] as string, number: Number(match[3]) };
}
