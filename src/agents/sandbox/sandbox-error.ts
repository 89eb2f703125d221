// The one error a sandbox call fails with, and why.
export type SandboxFailure = "timeout" | "crashed" | "out_of_memory" | "stopped" | "failed_to_start" | "aborted";

export class SandboxError extends Error {
  constructor(
    readonly reason: SandboxFailure,
    message: string,
  ) {
    super(message);
    this.name = "SandboxError";
  }
}
