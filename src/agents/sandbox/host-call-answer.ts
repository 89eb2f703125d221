// The host side of a host call (src/agents/sandbox/host-calls.ts asks): answered in the context of
// the platform's call it belongs to, and only while that call runs; a refusal carries the
// platform's error code, which agent code reads as `error.code`.
import type { HostCall, HostCallMethod, HostReply } from "./protocol";

export type OnHostCall = (call: {
  method: HostCallMethod;
  params: unknown;
  context: unknown;
  /** Aborted when the platform's call the host call serves has ended. */
  signal: AbortSignal;
}) => Promise<unknown>;

export async function answerHostCall(
  call: HostCall,
  serving: { hostContext?: unknown; ended: AbortController } | undefined,
  onHostCall: OnHostCall | undefined,
): Promise<HostReply> {
  try {
    if (!serving) throw new Error("host services are only available while the platform's call is running");
    if (!onHostCall) throw new Error(`${call.method} is not available here`);
    const result = await onHostCall({
      method: call.method,
      params: call.params,
      context: serving.hostContext,
      signal: serving.ended.signal,
    });
    return { hostReply: call.hostCall, ok: true, result: result ?? null };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      hostReply: call.hostCall,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      ...(typeof code === "string" ? { code } : {}),
    };
  }
}
