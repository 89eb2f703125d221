// The latest continuation token per session, in sessionStorage: it survives a reload of this
// tab, and a token another tab rotated would only earn a 409 anyway. The API has no route that
// gives a token back, so a session opened elsewhere can be read but not continued here.
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
