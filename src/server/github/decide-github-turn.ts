// Whether a GitHub event starts a turn, and as whom: the channel's own handler (onPullRequest,
// onIssue, onComment) decides, in the version's sandbox, with ctx.host as agent code has it
// everywhere; a channel without that handler gets the pack's default (github-events.ts), decided
// here without a sandbox.
import crypto from "node:crypto";
import { defaultGitHubAuth } from "@/agents/sdk/channels/github";
import { principalSchema, type Principal } from "@/agents/sdk/types";
import { versionSandboxSpec } from "@/server/agents/storage";
import type { PackRequest, PackServices } from "@/server/agent-channels/pack-types";
import { AppError } from "@/server/errors";
import type { HostContext } from "@/server/turns/host-context";
import type { GitHubEvent } from "./github-events";
import type { GitHubPack } from "./github-pack";

/** GitHub gives up on a delivery after 10 s; the handler gets most of them. */
export const handlerTimeoutMs = 8_000;

/** A host call's context in a handler: the webhook's installation is the one its API calls use. */
export type GitHubHostContext = HostContext & { githubInstallationId?: number };

export async function decideGitHubTurn(
  services: PackServices,
  input: PackRequest,
  pack: GitHubPack,
  event: GitHubEvent,
): Promise<{ auth: Principal } | { ignored: string }> {
  const byDefault = () =>
    event.ignoredByDefault ? { ignored: event.ignoredByDefault } : { auth: defaultGitHubAuth(event.context) };
  // Manifests list the handlers a channel defines; older ones do not, and the sandbox is asked.
  if (pack.config.handlers && !pack.config.handlers.includes(event.handler)) return byDefault();
  if (!services.sandboxes) throw new AppError("unavailable", `${event.handler}() runs in a sandbox, and none is here`);
  const { agent, version, channel } = input;
  const sandbox = (await services.sandboxes()).forVersion(
    versionSandboxSpec(services.dataDir, { agentId: agent.id, versionId: version.id, bundlePath: version.bundlePath }),
  );
  const hostContext: GitHubHostContext = {
    agentId: agent.id,
    versionId: version.id,
    bundlePath: version.bundlePath,
    channelId: channel.name,
    principal: { kind: "app", id: `channel:${channel.name}` },
    ...(event.thread.installationId !== undefined ? { githubInstallationId: event.thread.installationId } : {}),
  };
  const outcome = await sandbox
    .call(
      "runPackHandler",
      { file: channel.file, handler: event.handler, context: event.context, payload: event.payload },
      { timeoutMs: handlerTimeoutMs, hostContext },
    )
    .catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }));
  if (!outcome.ok) throw handlerFailure(services, input, event, outcome.error);
  if (!outcome.isDefined) return byDefault();
  if (outcome.decision === null) return { ignored: `${event.handler}() returned null` };
  const auth = principalSchema.safeParse((outcome.decision as { auth?: unknown }).auth);
  if (!auth.success)
    throw handlerFailure(
      services,
      input,
      event,
      `returned ${JSON.stringify(outcome.decision)}: return null or { auth }`,
    );
  return { auth: auth.data };
}

/** A handler that threw or answered nonsense: in the agent's logs with an id; 500 names the id. */
function handlerFailure(services: PackServices, input: PackRequest, event: GitHubEvent, error: string): AppError {
  const id = `err_${crypto.randomBytes(6).toString("hex")}`;
  services.logs?.write({
    agentId: input.agent.id,
    level: "error",
    source: "channel",
    name: `channels/${input.channel.name}`,
    message: `${event.handler}() failed [${id}]: ${error}`,
  });
  return new AppError(
    "internal_error",
    `the channel's ${event.handler}() failed (error ${id}; the agent's logs have it)`,
  );
}
