// Which hosts agent code may reach through the egress proxy (egress-proxy.ts), and which
// addresses no policy ever lets it reach. The rules are in docs/agent-folders.md, "What agent
// code can reach".
import net from "node:net";

/** `open`: any public host; `none`: nothing; otherwise only these names (`*.x.com` covers
 * every subdomain of x.com, not x.com itself). */
export type EgressPolicy = { kind: "open" } | { kind: "none" } | { kind: "domains"; domains: readonly string[] };

/** Parses the instance-wide setting (`AGENTFOLD_EGRESS`): `open`, `none` or a comma list. */
export function parseEgressSetting(value: string): EgressPolicy {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === "open" || trimmed === "none") return { kind: trimmed };
  const domains = trimmed
    .split(",")
    .map((domain) => domain.trim())
    .filter(Boolean);
  const bad = domains.find((domain) => !/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain));
  if (domains.length === 0 || bad !== undefined)
    throw new Error(
      `expected open, none or a comma-separated list of host names${bad ? ` (not a host name: ${bad})` : ""}`,
    );
  return { kind: "domains", domains };
}

/** Parses AGENTFOLD_MCP_PRIVATE_HOSTS: a comma list of host:port. */
export function parsePrivateHosts(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const bad = entries.find((entry) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(entry));
  if (bad) throw new Error(`expected a comma-separated list of host:port (not one: ${bad})`);
  return entries.map((entry) => entry.replace(/^\[(.*)\]/, "$1"));
}

/**
 * The policy of one agent: its `hosting.egressDomains` when it declares them, within the
 * instance's policy (which is also what an agent that declares nothing gets).
 */
export function agentEgressPolicy(instance: EgressPolicy, declared: readonly string[] | undefined): EgressPolicy {
  if (instance.kind === "none" || declared === undefined) return instance;
  const domains = declared.map((domain) => domain.toLowerCase());
  if (instance.kind === "open") return { kind: "domains", domains };
  return {
    kind: "domains",
    domains: domains.filter((domain) => instance.domains.some((allowed) => coversDomain(allowed, domain))),
  };
}

/** Whether `pattern` (a name or `*.suffix`) covers `name` (a name or a pattern). */
function coversDomain(pattern: string, name: string): boolean {
  if (!pattern.startsWith("*.")) return pattern === name;
  const suffix = pattern.slice(1);
  return name.endsWith(suffix) && name.length > suffix.length;
}

export function isHostAllowed(policy: EgressPolicy, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (policy.kind === "none") return false;
  if (policy.kind === "open") return true;
  return policy.domains.some((pattern) => coversDomain(pattern, name));
}

// Ranges that are never egress: this machine, private networks, link-local (cloud metadata
// services), carrier-grade NAT, multicast and reserved space; IPv4-mapped and NAT64 IPv6 forms
// too (egress to an IPv4 host goes over IPv4).
const blockedV4 = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blockedV4.addSubnet(address, prefix, "ipv4");
const blockedV6 = new net.BlockList();
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blockedV6.addSubnet(address, prefix, "ipv6");

/** False for every address agent code must never reach, whatever the policy. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blockedV4.check(address, "ipv4");
  return family === 6 && !blockedV6.check(address, "ipv6");
}
