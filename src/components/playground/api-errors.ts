// Turns an API error into a sentence a person can act on: what happened, then what to do.
const nextSteps: Record<string, string> = {
  unauthorized: "Sign in, or paste a token in the token field.",
  forbidden: "Use a token scoped to this agent with the needed action, or open a session you own.",
  not_found: "Check the agent name and session id, or start a new chat.",
  stale_continuation_token: "Another tab or client continued this session since. Send again to continue it here.",
  task_session: "Task sessions take no follow-ups. Start a new chat instead.",
  already_resolved: "Someone already decided this call; the transcript shows the decision.",
  conflict: "The agent may have no active version: deploy it, then try again.",
  rate_limited: "Wait a moment, then try again.",
  payload_too_large: "Send a shorter message (the limit is 1 MiB).",
  unavailable: "A part of the platform is down. Check /v1/health, then try again.",
  internal_error: "Try again; if it keeps failing, check the server log.",
};

export function apiErrorMessage(status: number, code: string, message: string | undefined): string {
  const what = message ?? `The server answered ${status} (${code}).`;
  const next = nextSteps[code] ?? (status >= 500 ? nextSteps.internal_error : undefined);
  return next ? `${what.replace(/\.?$/, ".")} ${next}` : what;
}
