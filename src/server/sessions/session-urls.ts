// The URLs a session response points to (spec §3.3).
export function sessionUrls(baseUrl: string, slug: string, sessionId: string) {
  return {
    playgroundUrl: `${baseUrl}/${slug}/playground?sessionId=${sessionId}`,
    traceUrl: `${baseUrl}/${slug}/v1/session/${sessionId}/events`,
  };
}

export function newSessionId(): string {
  return `ses_${crypto.randomUUID().replace(/-/g, "")}`;
}

export function newTurnId(): string {
  return `turn_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
}

/** A send's delivery id when the caller gave none (spec §4.4). */
export function newDeliveryId(): string {
  return `dlv_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
}
