// The loads of a dev stack, one at a time (each bundles on the same cores): a request for an agent
// already waiting replaces its reason, so a burst of saves during a load makes one more load of
// that agent after it, and agents load in the order they were asked for.
export type Reloads = {
  request: (key: string, reason: string) => void;
  /** Settles when nothing is loading or waiting. */
  idle: () => Promise<void>;
  close: () => void;
};

export function createReloads(
  load: (key: string, reason: string) => Promise<void>,
  onFailure: (key: string, error: unknown) => void,
): Reloads {
  const waiting = new Map<string, string>();
  let running: Promise<void> | undefined;
  let isClosed = false;
  const drain = async () => {
    for (let next = waiting.entries().next(); !next.done && !isClosed; next = waiting.entries().next()) {
      const [key, reason] = next.value;
      waiting.delete(key);
      await load(key, reason).catch((error: unknown) => onFailure(key, error));
    }
    running = undefined;
  };
  return {
    request: (key, reason) => {
      if (isClosed) return;
      waiting.set(key, reason);
      running ??= drain();
    },
    idle: async () => {
      while (running) await running;
    },
    close: () => {
      isClosed = true;
    },
  };
}
