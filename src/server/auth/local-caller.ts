// localDevStrict (docs/api.md, "Single-agent local mode"), for that mode only: a caller with no
// credentials is admitted as the local principal when it reached this server directly over
// loopback. The web server must listen on loopback alone, so every connection comes from this
// machine; a request that carries proxy-forwarding headers came through a proxy (a tunnel, a LAN
// reverse proxy) and is refused. Next's own server sets `X-Forwarded-For` to the socket's address
// when the request has none, so a single loopback address there is the direct case; anything else
// is a proxy. A browser on this machine is a direct loopback caller too, so web pages are kept out:
// the Host must be a loopback name (a DNS-rebound hostile name is not) and a cross-site request (an
// Origin, or Sec-Fetch-Site, that is not this machine) is refused.
import { isIP } from "node:net";
import type { Caller } from "./principal";

const loopbackHosts = new Set(["127.0.0.1", "::1", "localhost"]);

// What reverse proxies, tunnels and CDNs add (nginx, HAProxy, Cloudflare, Akamai, load balancers).
// Not X-Forwarded-Host/-Proto/-Port: Next's server fills those in itself, like X-Forwarded-For, so
// only a forwarded host that is not this machine tells (below).
const proxyHeaders = [
  "forwarded",
  "via",
  "x-real-ip",
  "x-forwarded-server",
  "x-client-ip",
  "x-cluster-client-ip",
  "cf-connecting-ip",
  "true-client-ip",
];

export function isLoopbackAddress(address: string): boolean {
  const plain = address.trim().replace(/^::ffff:/, "");
  return plain === "::1" || (isIP(plain) === 4 && plain.startsWith("127."));
}

function isLoopbackName(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return bare === "localhost" || isLoopbackAddress(bare);
}

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return "";
  }
}

/** Why a request is not a direct loopback call, or undefined when it is. */
export function proxyEvidence(headers: Headers, listenHost: string): string | undefined {
  if (!loopbackHosts.has(listenHost)) return `the server listens on ${listenHost}, not only on loopback`;
  const host = headers.get("host") ?? "";
  if (!isLoopbackName(hostnameOf(host))) return `the request is addressed to ${host || "no host"}, not to this machine`;
  const forwardedHost = headers.get("x-forwarded-host");
  if (forwardedHost !== null && !isLoopbackName(hostnameOf(forwardedHost)))
    return `the request was forwarded for ${forwardedHost}, not for this machine`;
  const origin = headers.get("origin");
  if (origin !== null && !isLoopbackName(hostnameOf(origin.replace(/^[a-z]+:\/\//i, ""))))
    return `the request comes from the web page ${origin}`;
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none" && site !== "same-site")
    return `the request comes from another site (${site})`;
  for (const name of proxyHeaders) if (headers.has(name)) return `the request carries ${name}`;
  const forwardedFor = headers.get("x-forwarded-for");
  if (forwardedFor !== null && (forwardedFor.includes(",") || !isLoopbackAddress(forwardedFor)))
    return "the request was forwarded for another address";
  return undefined;
}

export function localCaller(slug: string): Caller {
  return {
    principal: { kind: "local", id: "local" },
    can: (_action, target) => target === slug,
  };
}
