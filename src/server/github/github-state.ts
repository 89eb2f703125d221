// What a GitHub pack session knows of its pull request or issue, kept in its channel state under
// `github` (table channel_states): written by the webhook (where, the App installation, the head
// commit) and by the delivery (the banner comment, the commit the turn's status is on, the turn's
// last reply). Both write at once, so every write merges its keys in one statement.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { readChannelState } from "@/server/agent-channels/channel-state";

export type GitHubThread = {
  owner: string;
  repo: string;
  number: number;
  isPullRequest: boolean;
  installationId?: number;
  /** The PR's head commit as the last webhook told it; null: unknown (a comment), looked up. */
  headSha?: string | null;
  bannerCommentId?: number;
  /** The commit the running turn's status is on. */
  statusSha?: string;
  lastReply?: { turnId: string; text: string };
};

export async function readGitHubThread(db: PrismaClient, sessionId: string): Promise<GitHubThread | undefined> {
  const state = (await readChannelState(db, sessionId, {})) as { github?: GitHubThread };
  return state.github;
}

export async function mergeGitHubThread(db: PrismaClient, sessionId: string, patch: Partial<GitHubThread>) {
  await poolOf(db).query({
    name: "agentfold-github-thread-merge",
    text: `INSERT INTO channel_states ("sessionId", state, "updatedAt")
             VALUES ($1, jsonb_build_object('github', $2::jsonb), now() AT TIME ZONE 'UTC')
           ON CONFLICT ("sessionId") DO UPDATE SET
             state = channel_states.state || jsonb_build_object('github',
               COALESCE(channel_states.state->'github', '{}'::jsonb) || $2::jsonb),
             "updatedAt" = EXCLUDED."updatedAt"`,
    values: [sessionId, JSON.stringify(patch)],
  });
}
