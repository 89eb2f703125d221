// localDevStrict (spec §11.1), for single-agent local mode only: a caller with no credentials is
// admitted as the local principal when it reached this server directly over loopback. The web
// server must listen on loopback alone, so every connection comes from this machine; a request
// that carries proxy-forwarding headers came through a proxy (a tunnel, a LAN reverse proxy) and
// is refused. Next's own server sets `X-Forwarded-For` to the socket's address when the request
// has none, so a single loopback address there is the direct case; anything else is a proxy.
import { isIP } from "node:net";
import type { Caller } from "./principal";

const loopbackHosts = new Set(["127.0.0.1", "::1", "localhost"]);

export function isLoopbackAddress(address: string): boolean {
  const plain = address.trim().replace(/^::ffff:/, "");
  return plain === "::1" || (isIP(plain) === 4 && plain.startsWith("127."));
}

/** Why a request is not a direct loopback call, or undefined when it is. */
export function proxyEvidence(headers: Headers, listenHost: string): string | undefined {
  if (!loopbackHosts.has(listenHost)) return `the server listens on ${listenHost}, not only on loopback`;
  for (const name of ["forwarded", "x-real-ip", "x-forwarded-server", "via"]) if (headers.has(name)) return `the request carries ${name}`;
  const forwardedFor = headers.get("x-forwarded-for");
  if (forwardedFor !== null && (forwardedFor.includes(",") || !isLoopbackAddress(forwardedFor))) return "the request was forwarded for another address";
  return undefined;
}

export function localCaller(slug: string): Caller {
  return {
    principal: { kind: "local", id: "local" },
    can: (_action, target) => target === slug,
  };
}
