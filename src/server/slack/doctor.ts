// `agentfold slack doctor` and the dashboard's "Run doctor": what a Slack pack channel needs, each
// checked for real — the bot token against auth.test (its scopes from Slack's x-oauth-scopes
// header), the app token against apps.connections.open, and the events URL with a signed
// url_verification request, which is what Slack itself sends when the URL is saved.
import crypto from "node:crypto";
import { LogLevel, WebClient } from "@slack/web-api";
import { type SlackBotScope, slackBotScopes } from "./app-manifest";
import type { SlackCheck, SlackCheckStatus } from "./schema";

export { slackAppManifest } from "./app-manifest";
export type { SlackCheck, SlackCheckStatus };

export type SlackDoctorInput = {
  slug: string;
  /** The agent secrets' names, for the fixes. */
  names: { botToken: string; signingSecret: string; appToken: string };
  botToken?: string;
  signingSecret?: string;
  appToken?: string;
  slackApiUrl?: string;
  eventsUrl: string;
  interactivityUrl: string;
  needsScopes?: readonly SlackBotScope[];
};

type Deps = { fetch?: typeof fetch; timeoutMs?: number };

/** pass ✓, warn ! (works here, may not from Slack), fail ✗, skip – (needs an earlier check to pass). */
const check = (name: string, status: SlackCheckStatus, message: string, fix?: string): SlackCheck => ({
  name,
  ok: status !== "fail",
  status,
  message,
  ...(fix ? { fix } : {}),
});

export async function slackDoctor(input: SlackDoctorInput, deps: Deps = {}): Promise<SlackCheck[]> {
  const [token, appToken, eventsUrl, interactivityUrl] = await Promise.all([
    botTokenChecks(input, deps),
    appTokenCheck(input, deps),
    eventsUrlCheck(input, deps),
    interactivityUrlCheck(input, deps),
  ]);
  return [...token, signingSecretCheck(input), appToken, eventsUrl, interactivityUrl];
}

function setSecretFix(input: SlackDoctorInput, name: string, what: string): string {
  return `set the agent's secret ${name} to ${what}: printf '%s' "$VALUE" | agentfold secret set ${input.slug} ${name} (or the dashboard's Secrets panel)`;
}

function webClient(token: string, input: SlackDoctorInput, deps: Deps): WebClient {
  return new WebClient(token, {
    ...(input.slackApiUrl ? { slackApiUrl: input.slackApiUrl } : {}),
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
    timeout: deps.timeoutMs ?? 10_000,
  });
}

/** What went wrong with a Web API call, in Slack's words when Slack answered. */
function slackProblem(error: unknown): { code?: string; text: string } {
  const data = (error as { data?: { error?: unknown } }).data;
  if (typeof data?.error === "string") return { code: data.error, text: `Slack answered ${data.error}` };
  const original = (error as { original?: Error }).original;
  return { text: `could not reach Slack: ${(original ?? (error as Error)).message}` };
}

async function botTokenChecks(input: SlackDoctorInput, deps: Deps): Promise<SlackCheck[]> {
  const { botToken: name } = input.names;
  if (!input.botToken)
    return [
      check(
        "bot token",
        "fail",
        `${name} is not set`,
        setSecretFix(input, name, "the app's Bot User OAuth Token (xoxb-…)"),
      ),
      check("scopes", "skip", "not checked: needs a valid bot token"),
    ];
  let result: Awaited<ReturnType<WebClient["auth"]["test"]>>;
  try {
    result = await webClient(input.botToken, input, deps).auth.test();
  } catch (error) {
    const problem = slackProblem(error);
    const fix = problem.code
      ? setSecretFix(
          input,
          name,
          "the current Bot User OAuth Token (OAuth & Permissions; reinstall the app if it was revoked)",
        )
      : "check this host's connection to Slack (or SLACK_API_URL)";
    return [
      check("bot token", "fail", `${name}: ${problem.text}`, fix),
      check("scopes", "skip", "not checked: needs a valid bot token"),
    ];
  }
  if (!result.bot_id)
    return [
      check(
        "bot token",
        "fail",
        `${name} is a user token, not a bot token`,
        setSecretFix(input, name, "the Bot User OAuth Token (xoxb-…)"),
      ),
      check("scopes", "skip", "not checked: needs a bot token"),
    ];
  const tokenCheck = check(
    "bot token",
    "pass",
    `valid: @${result.user} (${result.user_id}) in ${result.team} (${result.team_id})`,
  );
  return [tokenCheck, scopesCheck(input, result.response_metadata?.scopes)];
}

/** The token's scopes (Slack's x-oauth-scopes header) against what the pack needs. */
function scopesCheck(input: SlackDoctorInput, granted: string[] | undefined): SlackCheck {
  const needed = input.needsScopes ?? slackBotScopes.map((entry) => entry.scope);
  if (!granted) return check("scopes", "warn", "Slack did not report the token's scopes");
  const missing = needed.filter((scope) => !granted.includes(scope));
  if (missing.length === 0) return check("scopes", "pass", `all ${needed.length} scopes granted`);
  const reasons = missing.map((scope) => `${scope} (${slackBotScopes.find((entry) => entry.scope === scope)?.why})`);
  return check(
    "scopes",
    "fail",
    `missing scope${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}`,
    `add under OAuth & Permissions → Bot Token Scopes: ${reasons.join("; ")}; or paste the manifest from ` +
      `\`agentfold slack manifest ${input.slug}\`. Then reinstall the app to the workspace, and set ` +
      `${input.names.botToken} again if Slack shows a new token`,
  );
}

function signingSecretCheck(input: SlackDoctorInput): SlackCheck {
  const { signingSecret: name } = input.names;
  if (input.signingSecret) return check("signing secret", "pass", `${name} is set`);
  if (input.appToken)
    return check("signing secret", "pass", `${name} is not set: not needed while events come over Socket Mode`);
  return check(
    "signing secret",
    "fail",
    `${name} is not set: Agentfold refuses every Events API and interactivity request until it is`,
    setSecretFix(input, name, "the Signing Secret from the app's Basic Information → App Credentials"),
  );
}

async function appTokenCheck(input: SlackDoctorInput, deps: Deps): Promise<SlackCheck> {
  const { appToken: name } = input.names;
  if (!input.appToken)
    return check(
      "app token",
      "pass",
      `${name} is not set (optional: with it, events come over Socket Mode instead of the URLs)`,
    );
  try {
    await webClient(input.appToken, input, deps).apps.connections.open({});
    return check("app token", "pass", `valid: Socket Mode connections open`);
  } catch (error) {
    const problem = slackProblem(error);
    const fix =
      problem.code === "not_allowed_token_type"
        ? setSecretFix(input, name, "an app-level token (xapp-…), not the bot token")
        : problem.code
          ? `create an app-level token with the connections:write scope (Basic Information → App-Level Tokens), enable Socket Mode, and set ${name} to it`
          : "check this host's connection to Slack (or SLACK_API_URL)";
    return check("app token", "fail", `${name}: ${problem.text}`, fix);
  }
}

async function probe(url: string, init: RequestInit, deps: Deps): Promise<Response | Error> {
  try {
    const doFetch = deps.fetch ?? fetch;
    return await doFetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000) });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return new Error(cause?.message ?? (error as Error).message);
  }
}

async function eventsUrlCheck(input: SlackDoctorInput, deps: Deps): Promise<SlackCheck> {
  const url = input.eventsUrl;
  if (!input.signingSecret) return check("events URL", "skip", `${url}: not checked without the signing secret`);
  const challenge = crypto.randomBytes(16).toString("hex");
  const body = JSON.stringify({ token: "agentfold-doctor", challenge, type: "url_verification" });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = crypto.createHmac("sha256", input.signingSecret).update(`v0:${timestamp}:${body}`).digest("hex");
  const response = await probe(
    url,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": String(timestamp),
        "x-slack-signature": `v0=${signature}`,
      },
      body,
    },
    deps,
  );
  if (response instanceof Error) return unreachable("events URL", url, response, input);
  const answer = (await response.json().catch(() => ({}))) as { challenge?: unknown; message?: unknown };
  if (response.status === 200 && answer.challenge === challenge)
    return reachable("events URL", url, "answers Slack's URL verification", input);
  if (response.status === 401)
    return check(
      "events URL",
      "fail",
      `${url} refused a request signed with ${input.names.signingSecret}`,
      "this address reaches another installation or agent: check AGENTFOLD_PUBLIC_URL",
    );
  return check(
    "events URL",
    "fail",
    `${url} answered ${response.status}${typeof answer.message === "string" ? `: ${answer.message}` : ""}`,
    "check AGENTFOLD_PUBLIC_URL and that the agent's active version has this channel",
  );
}

async function interactivityUrlCheck(input: SlackDoctorInput, deps: Deps): Promise<SlackCheck> {
  const url = input.interactivityUrl;
  // A GET changes nothing; the route answers it 405 (Slack only POSTs), which proves it is ours.
  const response = await probe(url, { method: "GET" }, deps);
  if (response instanceof Error) return unreachable("interactivity URL", url, response, input);
  const answer = (await response.json().catch(() => ({}))) as { error?: unknown; message?: unknown };
  if (response.status === 405 && answer.error === "method_not_allowed")
    return reachable("interactivity URL", url, "reaches the agent's channel", input);
  return check(
    "interactivity URL",
    "fail",
    `${url} answered ${response.status}${typeof answer.message === "string" ? `: ${answer.message}` : ""}`,
    "check AGENTFOLD_PUBLIC_URL and that the agent's active version has this channel",
  );
}

// With an app token, Slack sends over Socket Mode and never calls the URLs: they only matter then
// if the app is switched back to request URLs.
function unreachable(name: string, url: string, error: Error, input: SlackDoctorInput): SlackCheck {
  const message = `${url} is not reachable from this host: ${error.message}`;
  return check(name, input.appToken ? "warn" : "fail", message, "check AGENTFOLD_PUBLIC_URL");
}

/** Reached from here; Slack also needs a public https address, unless it sends over Socket Mode. */
function reachable(name: string, url: string, what: string, input: SlackDoctorInput): SlackCheck {
  const { protocol, hostname } = new URL(url);
  if (input.appToken) return check(name, "pass", `${url} ${what} (with Socket Mode, Slack need not reach it)`);
  if (isLocalHost(hostname))
    return check(
      name,
      "warn",
      `${url} ${what} here, but Slack cannot reach ${hostname}`,
      "set AGENTFOLD_PUBLIC_URL to this installation's public https address",
    );
  if (protocol !== "https:")
    return check(
      name,
      "warn",
      `${url} ${what}, but Slack sends requests to https addresses only`,
      "serve Agentfold over https",
    );
  return check(name, "pass", `${url} ${what}`);
}

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}
