// A GitHub pack session's events, posted back to its pull request or issue by the platform
// (docs/integrations.md, "GitHub"), in the worker's hook dispatcher: in the session's order, at
// most once each.
// - the reply: one comment per turn, at turn.completed, with the turn's last message.completed
//   text (kept in the channel state as it arrives; a turn that ends without text posts nothing);
// - `progress.commitStatus`: `pending` on the PR's head commit at turn.started, `success` or
//   `failure` on that same commit when the turn ends (context `agentfold/<agent name>`);
// - `progress.banner`: one comment per session, created at its first turn and edited in place:
//   working (with the running tools), done, or failed.
// A failed turn's message stays in Agentfold (the session's events): PR threads may be public.
import type { SessionEvent } from "@/agents/sdk/events";
import type { PackDeliveryServices } from "@/server/agent-channels/pack-types";
import type { HookTarget } from "@/server/hooks/hook-target";
import { githubOctokit } from "./github-auth";
import { githubPackOf } from "./github-pack";
import { githubPoster } from "./github-poster";
import { mergeGitHubThread, readGitHubThread } from "./github-state";

const delivered = new Set<SessionEvent["type"]>([
  "turn.started",
  "actions.requested",
  "message.completed",
  "turn.completed",
  "turn.failed",
]);

export function githubDelivery(services: PackDeliveryServices) {
  return async ({ target, event }: { target: HookTarget; event: SessionEvent }): Promise<void> => {
    // Most events (deltas above all) cost nothing: no read, no request.
    if (!delivered.has(event.type) || !target.channel) return;
    const { db } = services;
    const thread = await readGitHubThread(db, target.sessionId);
    if (!thread) return;
    if (event.type === "message.completed") {
      if (event.turnId)
        await mergeGitHubThread(db, target.sessionId, { lastReply: { turnId: event.turnId, text: event.data.text } });
      return;
    }
    const pack = githubPackOf(target.channel);
    const { commitStatus = false, banner = false } = pack.config.progress ?? {};
    const isReply = event.type === "turn.completed" && pack.config.deliverReplies !== false;
    if (!commitStatus && !banner && !isReply) return;
    const octokit = await githubOctokit({
      secrets: services.secrets,
      agentId: target.agentId,
      apiUrl: services.githubApiUrl,
      installationId: thread.installationId,
      repo: { owner: thread.owner, repo: thread.repo },
    });
    const post = githubPoster({ octokit, thread, db, sessionId: target.sessionId, agentName: target.agentName });
    // Each part is tried whatever happened to the one before: a missing permission for statuses
    // must not cost the reply.
    const failures: string[] = [];
    const attempt = (what: string, part: () => Promise<void>) =>
      part().catch(
        (error: unknown) => void failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`),
      );
    if (event.type === "turn.started") {
      if (commitStatus && thread.isPullRequest) await attempt("commit status", () => post.startStatus());
      if (banner) await attempt("banner", () => post.banner(`⏳ **${target.agentName}** is working on this…`));
    } else if (event.type === "actions.requested") {
      const tools = [...new Set(event.data.calls.map((call) => `\`${call.toolName}\``))].join(", ");
      if (banner)
        await attempt("banner", () => post.banner(`⏳ **${target.agentName}** is working on this: running ${tools}`));
    } else if (event.type === "turn.completed") {
      const last = thread.lastReply;
      const reply = last && last.turnId === event.turnId ? last.text.trim() : "";
      if (reply && pack.config.deliverReplies !== false) await attempt("reply", () => post.comment(reply));
      if (commitStatus) await attempt("commit status", () => post.endStatus("success", "Done"));
      if (banner)
        await attempt("banner", () =>
          post.banner(`✅ **${target.agentName}** is done${reply ? ": the reply is below." : "."}`),
        );
    } else if (event.type === "turn.failed") {
      const stopped = event.data.status === "cancelled";
      if (commitStatus) await attempt("commit status", () => post.endStatus("failure", stopped ? "Stopped" : "Failed"));
      if (banner)
        await attempt("banner", () =>
          post.banner(`❌ **${target.agentName}** ${stopped ? "was stopped" : "could not finish this"}.`),
        );
    }
    if (failures.length > 0) throw new Error(`GitHub: ${failures.join("; ")}`);
  };
}
