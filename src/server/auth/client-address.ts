// The client address a sign-in is counted under (sign-in-limits.ts). X-Forwarded-For is written
// by whoever sends the request, so it says something only when the peer that sent it to us is a
// proxy the operator trusts (AGENTFOLD_TRUSTED_PROXIES, docs/configuration.md); otherwise the
// client is the peer itself, however it rotates the header.
import type http from "node:http";
import net from "node:net";

/** Set by the web process on every request from the socket, over anything the client sent. */
export const peerAddressHeader = "x-agentfold-peer-address";

/** The web process's stamp (src/server/web/main.ts): route handlers never see the socket. */
export function stampPeerAddress(req: http.IncomingMessage): void {
  req.headers[peerAddressHeader] = req.socket.remoteAddress ?? "";
}

/** A problem with one entry of AGENTFOLD_TRUSTED_PROXIES (an IP address or a CIDR), if any. */
export function trustedProxyProblem(entry: string): string | undefined {
  const [address, prefix, ...rest] = entry.split("/");
  const family = net.isIP(address ?? "");
  if (family === 0 || rest.length > 0) return `'${entry}' is not an IP address or CIDR`;
  if (prefix === undefined) return undefined;
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return `'${entry}' has a bad prefix length`;
  return undefined;
}

export type TrustedProxies = { has: (address: string) => boolean };

/** The matcher for validated entries (trustedProxyProblem found none). */
export function trustedProxies(entries: string[]): TrustedProxies {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const type = net.isIP(address) === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    has: (address) => {
      const plain = unmapped(address);
      const family = net.isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
    },
  };
}

/**
 * The client: the peer, unless it is a trusted proxy; then X-Forwarded-For read from the right,
 * past every trusted proxy, to the first address none of them vouches for. Without the web
 * process's stamp (plain `next dev`) it is what the nearest hop wrote last.
 */
export function clientAddress(options: {
  peer?: string;
  forwardedFor?: string;
  trusted: TrustedProxies;
}): string | undefined {
  const { peer, trusted } = options;
  const hops = (options.forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  if (!peer) return hops.at(-1);
  let client = unmapped(peer);
  while (trusted.has(client) && hops.length > 0) client = unmapped(hops.pop()!);
  return client;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
function unmapped(address: string): string {
  return address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}
