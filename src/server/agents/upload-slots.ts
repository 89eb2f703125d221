// How many uploads the web process takes in at once. An upload holds its whole archive in memory
// (≤ 50 MiB, twice while it is joined) and then extracts, bundles and loads it: without a bound,
// parallel uploads add up (docs/agent-folders.md, "Concurrent uploads", has the numbers). A few
// run; the next ones wait their turn without reading their bodies (the socket holds them back),
// and past the waiting room an upload is refused with 503 at once.
import { AppError } from "@/server/errors";

export type UploadSlots = {
  /** Resolves with the function that frees the slot once this upload may run; throws
   * `unavailable` when every slot and every waiting place is taken. */
  enter: () => Promise<() => void>;
  /** Uploads running and waiting now. */
  load: () => { running: number; waiting: number };
};

export const uploadSlotLimits = { running: 2, waiting: 6 } as const;

export function createUploadSlots(limits: { running: number; waiting: number } = uploadSlotLimits): UploadSlots {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    // The freed slot passes straight to the next in line: running never dips, so nobody overtakes.
    if (next) next();
    else running--;
  };
  const once = () => {
    let isFreed = false;
    return () => {
      if (isFreed) return;
      isFreed = true;
      release();
    };
  };
  return {
    async enter() {
      if (running < limits.running) {
        running++;
        return once();
      }
      if (queue.length >= limits.waiting) {
        throw new AppError(
          "unavailable",
          `${running} uploads are running and ${queue.length} waiting; try again in a minute`,
        );
      }
      await new Promise<void>((resolve) => queue.push(resolve));
      return once();
    },
    load: () => ({ running, waiting: queue.length }),
  };
}

// One per process: Next may load the upload route's modules more than once.
const processSlots = Symbol.for("agentfold.uploadSlots");
type ProcessGlobal = typeof globalThis & { [processSlots]?: UploadSlots };

export function processUploadSlots(): UploadSlots {
  return ((globalThis as ProcessGlobal)[processSlots] ??= createUploadSlots());
}
