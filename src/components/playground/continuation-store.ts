// The latest continuation token per session, in sessionStorage: it survives a reload of this
// tab. A tab without one (a session opened from a link, or continued elsewhere since) gets a
// fresh one from POST …/session/:id/resume when it sends.
const key = (slug: string, sessionId: string) => `agentfold.continuation.${slug}.${sessionId}`;

export function readContinuationToken(slug: string, sessionId: string): string | undefined {
  try {
    return window.sessionStorage.getItem(key(slug, sessionId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveContinuationToken(slug: string, sessionId: string, token: string): void {
  try {
    window.sessionStorage.setItem(key(slug, sessionId), token);
  } catch {
    // storage disabled: follow-ups work until the page reloads
  }
}

export function clearContinuationToken(slug: string, sessionId: string): void {
  try {
    window.sessionStorage.removeItem(key(slug, sessionId));
  } catch {
    // storage disabled: nothing kept
  }
}
