// A cancel finds the request it names, of its own principal and agent only, and nothing once the
// request is done.
import { describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth/principal";
import { cancelMcpRequest, trackMcpRequest } from "./mcp-server-inflight";

const ada: Principal = { kind: "app", id: "token:ada" };
const bob: Principal = { kind: "app", id: "token:bob" };

describe("in-flight MCP requests", () => {
  it("aborts the request of that agent, principal and id only", () => {
    const mine = trackMcpRequest("agt_1", ada, 3);
    const theirs = trackMcpRequest("agt_1", bob, 3);
    const elsewhere = trackMcpRequest("agt_2", ada, 3);
    const asString = trackMcpRequest("agt_1", ada, "3");
    expect(cancelMcpRequest("agt_1", ada, 3, "changed my mind")).toBe(true);
    expect(mine.signal.aborted).toBe(true);
    expect(mine.signal.reason).toBe("changed my mind");
    expect([theirs, elsewhere, asString].map((request) => request.signal.aborted)).toEqual([false, false, false]);
  });

  it("finds nothing once the request is done", () => {
    const request = trackMcpRequest("agt_1", ada, 9);
    request.done();
    expect(cancelMcpRequest("agt_1", ada, 9)).toBe(false);
    expect(request.signal.aborted).toBe(false);
  });
});
