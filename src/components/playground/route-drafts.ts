// The last input sent to each channel route, per agent, in localStorage: the Try modal and the
// slash-command form open with it. Inputs only (body, query, params); never a token or an answer.
export type RouteDraft = { body?: unknown; query?: Record<string, unknown>; params?: Record<string, string> };

const storageKey = (slug: string) => `agentfold.routeDrafts.${slug}`;

function readAll(slug: string): Record<string, RouteDraft> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(slug)) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, RouteDraft>) : {};
  } catch {
    return {}; // storage disabled, or a value we did not write
  }
}

export function lastDraft(slug: string, routeKey: string): RouteDraft | undefined {
  return readAll(slug)[routeKey];
}

export function rememberDraft(slug: string, routeKey: string, draft: RouteDraft): void {
  try {
    localStorage.setItem(storageKey(slug), JSON.stringify({ ...readAll(slug), [routeKey]: draft }));
  } catch {
    // Storage full or disabled: the next visit starts from an empty body, nothing worse.
  }
}
