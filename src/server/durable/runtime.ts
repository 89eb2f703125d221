// Everything durable goes through this interface, so another engine can be added behind it.
export type DurableRuntime = {
  /** The engine itself answers its health check. */
  isHealthy: () => Promise<boolean>;
  /** Makes a worker endpoint known to the engine. Idempotent. */
  registerWorker: (workerUrl: string) => Promise<void>;
};
