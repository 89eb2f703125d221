// Slack's request signing (docs.slack.dev/authentication/verifying-requests-from-slack): the
// signature is v0= HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the app's signing secret.
import { createHmac } from "node:crypto";

/** The headers a signed Events API / interactivity request from Slack carries. */
export function signSlackRequest(
  signingSecret: string,
  body: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = createHmac("sha256", signingSecret).update(`v0:${timestampSeconds}:${body}`).digest("hex");
  return { "X-Slack-Signature": `v0=${signature}`, "X-Slack-Request-Timestamp": String(timestampSeconds) };
}
