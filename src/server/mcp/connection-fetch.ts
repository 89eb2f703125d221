// The fetch remote MCP connections (and their OAuth discovery) go out with. A connection's URL is
// the agent author's, so it may reach only what the agent's own code could through the egress
// proxy: a host its policy allows, at a public address (names are resolved here and only public
// answers are dialled, so a name that resolves to 127.0.0.1 is refused too), redirects not
// followed. The exception is a host:port the operator lists in AGENTFOLD_MCP_PRIVATE_HOSTS, for
// MCP servers on their own network (docs/configuration.md).
import dns from "node:dns";
import net from "node:net";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent, fetch as undiciFetch } from "undici";
import { isHostAllowed, isPublicAddress, type EgressPolicy } from "@/agents/sandbox/egress-policy";

export type ConnectionReach = {
  policy: EgressPolicy;
  /** `host:port` entries reachable whatever their address (lower case). */
  privateHosts: readonly string[];
};

export class UnreachableConnection extends Error {}

// Dials only public addresses: the answer DNS gives is checked where it is used, not before.
const publicOnly = new Agent({
  connect: {
    lookup(hostname, options, callback) {
      dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, "", 4);
        const usable = (addresses as dns.LookupAddress[]).filter((entry) => isPublicAddress(entry.address));
        if (usable.length === 0)
          return callback(
            new UnreachableConnection(`${hostname} does not resolve to a public address`) as NodeJS.ErrnoException,
            "",
            4,
          );
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      });
    },
  },
});

export function reachCheckedFetch(reach: ConnectionReach): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const isListed = reach.privateHosts.includes(`${host}:${port}`);
    if (!isListed) refusal(reach.policy, host);
    const response = await undiciFetch(url, {
      ...(init as object),
      redirect: "manual",
      ...(isListed ? {} : { dispatcher: publicOnly }),
    } as Parameters<typeof undiciFetch>[1]);
    // As the global Response: the SDK reads error answers only from one (`instanceof Response`).
    const body = [101, 204, 205, 304].includes(response.status) ? null : (response.body as ReadableStream | null);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers([...response.headers]),
    });
  };
}

function refusal(policy: EgressPolicy, host: string): void {
  if (net.isIP(host) && !isPublicAddress(host))
    throw new UnreachableConnection(
      `${host} is not a public address (an operator can allow it in AGENTFOLD_MCP_PRIVATE_HOSTS)`,
    );
  if (!isHostAllowed(policy, host))
    throw new UnreachableConnection(
      policy.kind === "none" ? "this agent has no egress" : `${host} is not in this agent's egress allowlist`,
    );
}
