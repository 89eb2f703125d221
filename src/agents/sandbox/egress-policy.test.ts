import { describe, expect, it } from "vitest";
import { agentEgressPolicy, isHostAllowed, isPublicAddress, parseEgressSetting } from "./egress-policy";

describe("the instance's egress setting", () => {
  it("reads open, none and domain lists, and refuses anything else", () => {
    expect(parseEgressSetting("open")).toEqual({ kind: "open" });
    expect(parseEgressSetting(" NONE ")).toEqual({ kind: "none" });
    expect(parseEgressSetting("api.example.com, *.slack.com")).toEqual({
      kind: "domains",
      domains: ["api.example.com", "*.slack.com"],
    });
    expect(() => parseEgressSetting("https://x.com")).toThrow(/not a host name: https:\/\/x.com/);
    expect(() => parseEgressSetting(",")).toThrow(/expected open, none/);
  });
});

describe("an agent's egress policy", () => {
  const open = { kind: "open" } as const;
  it("is the instance's when the agent declares nothing", () => {
    expect(agentEgressPolicy(open, undefined)).toEqual(open);
    expect(agentEgressPolicy({ kind: "none" }, ["api.x.com"])).toEqual({ kind: "none" });
  });

  it("is what the agent declares, within the instance's list", () => {
    expect(agentEgressPolicy(open, ["API.x.com"])).toEqual({ kind: "domains", domains: ["api.x.com"] });
    const instance = { kind: "domains", domains: ["*.slack.com", "api.x.com"] } as const;
    expect(agentEgressPolicy(instance, ["hooks.slack.com", "api.x.com", "evil.com", "*.slack.com"])).toEqual({
      kind: "domains",
      domains: ["hooks.slack.com", "api.x.com", "*.slack.com"],
    });
  });

  it("matches names exactly, and a wildcard only below its domain", () => {
    const policy = { kind: "domains", domains: ["api.x.com", "*.slack.com"] } as const;
    expect(isHostAllowed(policy, "api.x.com")).toBe(true);
    expect(isHostAllowed(policy, "API.X.COM.")).toBe(true);
    expect(isHostAllowed(policy, "x.com")).toBe(false);
    expect(isHostAllowed(policy, "evilapi.x.com")).toBe(false);
    expect(isHostAllowed(policy, "hooks.slack.com")).toBe(true);
    expect(isHostAllowed(policy, "slack.com")).toBe(false);
    expect(isHostAllowed(policy, "evilslack.com")).toBe(false);
    expect(isHostAllowed({ kind: "none" }, "api.x.com")).toBe(false);
    expect(isHostAllowed({ kind: "open" }, "anything.example")).toBe(true);
  });
});

describe("public addresses", () => {
  it("excludes this machine, private networks, link-local and reserved space", () => {
    for (const address of [
      "127.0.0.1",
      "127.9.9.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("includes the public internet", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111"])
      expect(isPublicAddress(address), address).toBe(true);
  });
});
