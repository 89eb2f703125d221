// `decide` inside the sandbox (src/agents/sdk/extensions/jev.ts): the request goes to the platform
// as a host call of the platform call the code runs in, which is found from the async context,
// since `decide` is imported, not handed over on a ctx. This file runs ONLY in the sandbox.
import { decideHostKey } from "@/agents/sdk/extensions/decision";
import { currentCall } from "./console-capture";
import { hostCall } from "./host-calls";

export function registerDecide(): void {
  (globalThis as Record<symbol, unknown>)[decideHostKey] = (request: object) => {
    const requestId = currentCall();
    // Code left running after its call ended (a timer) has no request to act in.
    if (requestId === undefined) throw new Error("decide: called outside a tool, hook or schedule run");
    return hostCall(requestId, "decide", request);
  };
}
