// How often the engine tries durable work again after a retryable failure, and how far apart
// (docs/turns.md, "Failures"). Turns count their own attempts (failed-attempts.ts); Restate's
// policy spaces them out.

/** Attempts on retryable failures, with exponential backoff from `initialIntervalMs` up to
 * `maxIntervalMs` between them. */
export type RetryBound = { attempts: number; initialIntervalMs: number; maxIntervalMs: number };

export const defaultRetryBound: RetryBound = { attempts: 8, initialIntervalMs: 1_000, maxIntervalMs: 30_000 };

/** Restate's backoff for a bound, without a limit of its own: for work that must go on once what
 * it needs is back (a schedule's timer chain, a reminder's delivery). */
export function backoff(bound: RetryBound) {
  return { initialInterval: bound.initialIntervalMs, maxInterval: bound.maxIntervalMs, exponentiationFactor: 2 };
}
