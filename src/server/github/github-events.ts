// What a GitHub webhook delivery means to a GitHub pack channel (docs/integrations.md, "GitHub"):
// the handler it goes to with which payload, the session it belongs to (`pr:owner/repo#N` for a
// pull request and the comments on it, `issue:owner/repo#N` for an issue and its comments), the
// turn's message, and what happens when the channel defines no handler of its own:
// - pull_request: opened, reopened, ready_for_review and synchronize start a turn, drafts excepted;
// - issue_comment: a new comment that mentions `@botName` does (never without a botName);
// - issues: nothing (an issue triager asks for them with onIssue).
import { z } from "zod";
import type { GitHubEventContext, GitHubPullRequest, GitHubChannelConfig } from "@/agents/sdk/channels/github";
import { githubPrContinuationKey } from "@/agents/sdk/channels/github";
import type { GitHubHandlerName, GitHubPack } from "./github-pack";
import type { GitHubThread } from "./github-state";

type HandlerPayload<K extends "onIssue" | "onComment"> = Parameters<NonNullable<GitHubChannelConfig[K]>>[1];

export type GitHubEvent = {
  handler: GitHubHandlerName;
  context: Omit<GitHubEventContext, "host">;
  payload: GitHubPullRequest | HandlerPayload<"onIssue"> | HandlerPayload<"onComment">;
  /** Why nothing happens when the channel has no handler for it; undefined: a turn starts. */
  ignoredByDefault?: string;
  key: string;
  thread: Omit<GitHubThread, "bannerCommentId" | "statusSha" | "lastReply">;
  title: string;
  message: string;
  /** Who posted it: the platform's own comments are told by their marker. */
  comment?: { body: string };
};

const user = z.looseObject({ login: z.string(), id: z.number() });
const envelope = z.looseObject({
  action: z.string().default(""),
  repository: z.looseObject({ name: z.string(), owner: z.looseObject({ login: z.string() }) }),
  sender: user,
  installation: z.looseObject({ id: z.number() }).optional(),
});
const issue = z.looseObject({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  user: user.nullish(),
  pull_request: z.unknown().optional(),
});
const pullRequestEvent = envelope.extend({
  pull_request: issue.extend({
    draft: z.boolean().default(false),
    head: z.looseObject({ sha: z.string(), ref: z.string() }),
    base: z.looseObject({ ref: z.string() }),
  }),
});
const issuesEvent = envelope.extend({ issue });
const commentEvent = envelope.extend({
  issue,
  comment: z.looseObject({ body: z.string().default(""), html_url: z.string(), user: user.nullish() }),
});

export const handledEvents = ["pull_request", "issues", "issue_comment"] as const;

const prDefaultActions = new Set(["opened", "reopened", "ready_for_review", "synchronize"]);

/** Turn messages stay well under the 100 000 characters a message may have. */
const clip = (text: string, max = 60_000) => (text.length > max ? `${text.slice(0, max)}\n\n[… cut]` : text);

export function readGitHubEvent(
  pack: GitHubPack,
  name: (typeof handledEvents)[number],
  body: unknown,
  deliveryId: string | undefined,
): GitHubEvent {
  const base = envelope.parse(body);
  const repo = { owner: base.repository.owner.login, name: base.repository.name };
  const context = {
    event: name,
    ...(deliveryId ? { deliveryId } : {}),
    repo,
    sender: { login: base.sender.login, id: base.sender.id },
  };
  const where = { owner: repo.owner, repo: repo.name };
  const installation = base.installation ? { installationId: base.installation.id } : {};
  const lines = pack.config.context.length > 0 ? `\n\n${pack.config.context.join("\n")}` : "";
  const title = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);
  if (name === "pull_request") {
    const { pull_request: pr, action } = pullRequestEvent.parse(body);
    const payload: GitHubPullRequest = {
      action,
      number: pr.number,
      title: pr.title,
      body: pr.body ?? null,
      draft: pr.draft,
      htmlUrl: pr.html_url,
      headSha: pr.head.sha,
      headRef: pr.head.ref,
      baseRef: pr.base.ref,
      author: pr.user?.login ?? base.sender.login,
    };
    const ref = `${repo.owner}/${repo.name}#${pr.number}`;
    return {
      handler: "onPullRequest",
      context,
      payload,
      ...ignoring(
        "onPullRequest",
        !prDefaultActions.has(action) ? `pull_request.${action}` : pr.draft ? "a draft pull request" : undefined,
      ),
      key: githubPrContinuationKey({ ...where, number: pr.number }),
      thread: { ...where, number: pr.number, isPullRequest: true, ...installation, headSha: pr.head.sha },
      title: title(`${ref}: ${pr.title}`),
      message: clip(
        `Pull request ${ref} ${prAction(action)} by @${base.sender.login}: ${pr.title}\n${pr.html_url}\n` +
          `${pr.head.ref} → ${pr.base.ref}, head ${pr.head.sha}${lines}\n\n${pr.body?.trim() || "(no description)"}`,
      ),
    };
  }
  if (name === "issues") {
    const { issue: found, action } = issuesEvent.parse(body);
    const isPullRequest = found.pull_request !== undefined;
    const ref = `${repo.owner}/${repo.name}#${found.number}`;
    return {
      handler: "onIssue",
      context,
      payload: {
        action,
        number: found.number,
        title: found.title,
        body: found.body ?? null,
        author: found.user?.login ?? base.sender.login,
      },
      ...ignoring("onIssue", `issues.${action}`),
      key: threadKey(where, found.number, isPullRequest),
      thread: { ...where, number: found.number, isPullRequest, ...installation, headSha: null },
      title: title(`${ref}: ${found.title}`),
      message: clip(
        `Issue ${ref} ${action} by @${base.sender.login}: ${found.title}\n${found.html_url}${lines}\n\n` +
          `${found.body?.trim() || "(no description)"}`,
      ),
    };
  }
  const { issue: on, comment, action } = commentEvent.parse(body);
  const isPullRequest = on.pull_request !== undefined;
  const ref = `${repo.owner}/${repo.name}#${on.number}`;
  const author = comment.user?.login ?? base.sender.login;
  return {
    handler: "onComment",
    context,
    payload: { action, issueNumber: on.number, isPullRequest, body: comment.body, author },
    ...ignoring("onComment", commentIgnored(action, comment.body, pack.config.botName)),
    key: threadKey(where, on.number, isPullRequest),
    // A comment does not say which commit the PR is at: the delivery looks it up.
    thread: { ...where, number: on.number, isPullRequest, ...installation, headSha: null },
    title: title(`${ref}: ${on.title}`),
    message: clip(
      `@${author} commented on ${isPullRequest ? "pull request" : "issue"} ${ref} (${on.title}):\n` +
        `${comment.html_url}${lines}\n\n${comment.body}`,
    ),
    comment: { body: comment.body },
  };
}

function ignoring(handler: GitHubHandlerName, why: string | undefined) {
  return why ? { ignoredByDefault: `${why} (the channel has no ${handler}())` } : {};
}

function commentIgnored(action: string, body: string, botName: string | undefined): string | undefined {
  if (action !== "created") return `issue_comment.${action}`;
  if (!botName) return "a comment, and no botName to be mentioned by";
  return mentions(body, botName) ? undefined : `a comment that does not mention @${botName.replace(/\[bot\]$/i, "")}`;
}

function threadKey(where: { owner: string; repo: string }, number: number, isPullRequest: boolean): string {
  return isPullRequest ? githubPrContinuationKey({ ...where, number }) : `issue:${where.owner}/${where.repo}#${number}`;
}

function prAction(action: string): string {
  if (action === "synchronize") return "updated with new commits";
  if (action === "ready_for_review") return "marked ready for review";
  return action;
}

/** `@botName` as a whole word (GitHub logins are letters, digits and dashes). */
function mentions(body: string, botName: string | undefined): boolean {
  if (!botName) return false;
  const name = botName.replace(/\[bot\]$/i, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w-])@${name}(?![\\w-])`, "i").test(body);
}
