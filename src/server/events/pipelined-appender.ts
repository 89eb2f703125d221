// Appends a stream of events in order without making the producer wait on each one: while an
// append is in flight, later events queue up and go out together in the next append. A model
// streaming fast thus costs a few appends per step instead of one per delta, and the first delta
// still goes out at once — or, with `lingerMs`, a moment later with whatever followed it: a step
// whose model answers at once then costs one append, and a slow model shows its start a few
// milliseconds late. With `join`, events that wait for the same append can become one (a text's
// deltas): the log then holds what a reader would have seen at that moment, in fewer rows.
import type { NewEvent, StepRecord } from "./append-events";

export type PipelinedAppender = {
  push: (...events: NewEvent[]) => void;
  /** The last events, with the journal record of the step they end (written by the same append). */
  end: (step: StepRecord | undefined, ...events: NewEvent[]) => void;
  /** Resolves when everything pushed so far is stored; rejects if any append failed. */
  flush: () => Promise<void>;
  /** Ends the linger and resolves once everything pushed so far has been handed to `append`
   * (not stored yet): an append requested after that is written after it. */
  dispatched: () => Promise<void>;
};

/** Joins an event to the one queued before it, when the two can be one: the joined event, or
 * undefined to queue it on its own. */
export type JoinEvents = (queued: NewEvent, next: NewEvent) => NewEvent | undefined;

export function pipelinedAppender(
  append: (events: NewEvent[], step?: StepRecord) => Promise<unknown>,
  options: { lingerMs?: number; join?: JoinEvents } = {},
): PipelinedAppender {
  const { join } = options;
  let pending: NewEvent[] = [];
  let endingStep: StepRecord | undefined;
  let chain: Promise<void> = Promise.resolve();
  let isScheduled = false;
  let failure: { error: unknown } | undefined;
  // The first append waits up to lingerMs for more events; flush ends the wait.
  let hasLingered = !options.lingerMs;
  let endLinger: (() => void) | undefined;
  let handed: Promise<void> = Promise.resolve();
  const appender: PipelinedAppender = {
    end(step, ...events) {
      endingStep = step;
      appender.push(...events);
    },
    push(...events) {
      if (failure) throw failure.error;
      for (const event of events) {
        const joined = join && pending.length > 0 ? join(pending[pending.length - 1]!, event) : undefined;
        if (joined) pending[pending.length - 1] = joined;
        else pending.push(event);
      }
      if (isScheduled) return;
      isScheduled = true;
      const linger = hasLingered
        ? undefined
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.lingerMs);
            endLinger = () => {
              clearTimeout(timer);
              resolve();
            };
          });
      hasLingered = true;
      let onHanded = () => {};
      handed = new Promise<void>((resolve) => (onHanded = resolve));
      chain = chain.then(async () => {
        if (linger) await linger;
        isScheduled = false;
        const batch = pending;
        const step = endingStep;
        pending = [];
        endingStep = undefined;
        if (failure || batch.length === 0) return onHanded();
        const appended = append(batch, step);
        onHanded();
        try {
          await appended;
        } catch (error) {
          failure = { error };
        }
      });
    },
    async flush() {
      endLinger?.();
      await chain;
      if (failure) throw failure.error;
    },
    dispatched() {
      endLinger?.();
      return handed;
    },
  };
  return appender;
}
