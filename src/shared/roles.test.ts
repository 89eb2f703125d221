import { describe, expect, it } from "vitest";
import { canAssign, roleGrants } from "./roles";

describe("team roles", () => {
  it("lets a viewer read but never write, deploy or approve", () => {
    expect(roleGrants("viewer", "agents:read")).toBe(true);
    expect(roleGrants("viewer", "sessions:read")).toBe(true);
    for (const action of ["sessions:write", "tools:call", "agents:deploy", "approvals:write"] as const) {
      expect(roleGrants("viewer", action), action).toBe(false);
    }
  });

  it("lets members chat but only admins deploy and approve for others", () => {
    expect(roleGrants("member", "sessions:write")).toBe(true);
    expect(roleGrants("member", "agents:deploy")).toBe(false);
    expect(roleGrants("admin", "agents:deploy")).toBe(true);
    expect(roleGrants("admin", "approvals:write")).toBe(true);
    expect(roleGrants("owner", "agents:deploy")).toBe(true);
  });

  it("keeps the owner role in owners' hands", () => {
    expect(canAssign("admin", "member")).toBe(true);
    expect(canAssign("admin", "owner")).toBe(false);
    expect(canAssign("owner", "owner")).toBe(true);
    expect(canAssign("member", "viewer")).toBe(false);
  });
});
