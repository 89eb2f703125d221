// The URLs a session response points to (docs/api.md, "Sessions").
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

/** A send's delivery id when the caller gave none (docs/api.md, "Turn events (order)"). */
export function newDeliveryId(): string {
  return `dlv_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
}
