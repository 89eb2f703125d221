// What a GitHub pack delivery posts, on one pull request or issue: the reply comment, the sticky
// banner (edited in place; made again if someone deleted it), and the commit status of the turn.
// Everything it posts carries a marker, so the comment events it causes wake nobody.
import type { PrismaClient } from "@prisma/client";
import type { Octokit } from "@octokit/rest";
import { postedMarker } from "./github-pack";
import { mergeGitHubThread, type GitHubThread } from "./github-state";

export function githubPoster(options: {
  octokit: Octokit;
  thread: GitHubThread;
  db: PrismaClient;
  sessionId: string;
  agentName: string;
}) {
  const { octokit, thread, db, sessionId } = options;
  const where = { owner: thread.owner, repo: thread.repo };
  const status = (sha: string, state: "pending" | "success" | "failure", description: string) =>
    octokit.rest.repos.createCommitStatus({
      ...where,
      sha,
      state,
      context: `agentfold/${options.agentName}`,
      description: description.slice(0, 140),
    });
  return {
    async comment(text: string): Promise<void> {
      await octokit.rest.issues.createComment({
        ...where,
        issue_number: thread.number,
        body: `${text}\n\n${postedMarker}reply -->`,
      });
    },

    async banner(text: string): Promise<void> {
      const body = `${postedMarker}banner -->\n${text}`;
      if (thread.bannerCommentId !== undefined) {
        try {
          await octokit.rest.issues.updateComment({ ...where, comment_id: thread.bannerCommentId, body });
          return;
        } catch (error) {
          if ((error as { status?: number }).status !== 404) throw error;
        }
      }
      const { data } = await octokit.rest.issues.createComment({ ...where, issue_number: thread.number, body });
      thread.bannerCommentId = data.id;
      await mergeGitHubThread(db, sessionId, { bannerCommentId: data.id });
    },

    /** Pending on the head commit the webhook told, else on the PR's head now (a comment's turn). */
    async startStatus(): Promise<void> {
      const sha =
        thread.headSha ?? (await octokit.rest.pulls.get({ ...where, pull_number: thread.number })).data.head.sha;
      // Kept before it is posted: the turn's end reports on this commit, whatever came since.
      await mergeGitHubThread(db, sessionId, { statusSha: sha });
      thread.statusSha = sha;
      await status(sha, "pending", "Working…");
    },

    async endStatus(state: "success" | "failure", description: string): Promise<void> {
      if (thread.isPullRequest && thread.statusSha) await status(thread.statusSha, state, description);
    },
  };
}
