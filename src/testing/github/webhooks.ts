// Webhook deliveries as GitHub sends them (docs.github.com, "Validating webhook deliveries"):
// X-Hub-Signature-256 is `sha256=` and the HMAC-SHA256 of the raw body under the webhook secret;
// X-GitHub-Event names the event, X-GitHub-Delivery is the delivery's GUID. Signed here with
// node:crypto, apart from the SDK the platform verifies with.
import crypto from "node:crypto";

export function signGitHubWebhook(secret: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function postGitHubWebhook(
  url: string,
  delivery: { event: string; payload: unknown; secret?: string; deliveryId?: string; signature?: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = JSON.stringify(delivery.payload);
  const signature = delivery.signature ?? (delivery.secret ? signGitHubWebhook(delivery.secret, body) : undefined);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/fake",
      "x-github-event": delivery.event,
      "x-github-delivery": delivery.deliveryId ?? crypto.randomUUID(),
      ...(signature ? { "x-hub-signature-256": signature } : {}),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Who = { login: string; id: number };

/** The parts of GitHub's payloads the pack reads, with the rest GitHub sends left out. */
export const githubPayloads = {
  pullRequest(options: {
    action: string;
    owner: string;
    repo: string;
    number: number;
    title: string;
    body?: string;
    sender: Who;
    headSha: string;
    draft?: boolean;
    installationId?: number;
  }) {
    const { owner, repo, number } = options;
    return {
      action: options.action,
      number,
      pull_request: {
        number,
        title: options.title,
        body: options.body ?? null,
        draft: options.draft ?? false,
        html_url: `https://github.com/${owner}/${repo}/pull/${number}`,
        user: options.sender,
        head: { sha: options.headSha, ref: "feature" },
        base: { ref: "main" },
      },
      ...envelope(options),
    };
  },
  comment(options: {
    owner: string;
    repo: string;
    number: number;
    body: string;
    sender: Who;
    isPullRequest?: boolean;
    installationId?: number;
  }) {
    const { owner, repo, number } = options;
    const url = `https://github.com/${owner}/${repo}/${options.isPullRequest === false ? "issues" : "pull"}/${number}`;
    return {
      action: "created",
      issue: {
        number,
        title: "The pull request",
        body: null,
        html_url: url,
        user: options.sender,
        ...(options.isPullRequest === false ? {} : { pull_request: { html_url: url } }),
      },
      comment: { id: 1, body: options.body, html_url: `${url}#issuecomment-1`, user: options.sender },
      ...envelope(options),
    };
  },
};

function envelope(options: { owner: string; repo: string; sender: Who; installationId?: number }) {
  return {
    repository: { name: options.repo, full_name: `${options.owner}/${options.repo}`, owner: { login: options.owner } },
    sender: { ...options.sender, type: options.sender.login.endsWith("[bot]") ? "Bot" : "User" },
    ...(options.installationId !== undefined ? { installation: { id: options.installationId } } : {}),
  };
}
