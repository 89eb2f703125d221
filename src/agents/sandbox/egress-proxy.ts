// The only way out of a sandbox: an HTTP proxy on a Unix socket that is bound into it (the
// sandbox has no network of its own, not even the host's loopback). HTTPS goes through CONNECT,
// plain HTTP as absolute-form requests. Every request is checked against the agent's policy by
// host name, resolved here, and connected only to a public address that is not this machine's:
// a listed name that resolves to 127.0.0.1 or 10.x is refused like an unlisted one.
import dns from "node:dns/promises";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { isHostAllowed, isPublicAddress, type EgressPolicy } from "./egress-policy";

export type ResolveTarget = (host: string) => Promise<string[]>;

export type EgressProxy = { socketPath: string; close: () => Promise<void> };

export type EgressProxyOptions = {
  socketPath: string;
  policy: EgressPolicy;
  /** Addresses to try for a host; the default resolves with DNS and keeps public addresses that
   * are not this machine's. Tests map names to a local server here. */
  resolve?: ResolveTarget;
  onRefused?: (target: string, reason: string) => void;
};

class Refused extends Error {}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const resolve = options.resolve ?? resolvePublic;
  const sockets = new Set<net.Socket>();

  async function addressFor(host: string): Promise<string> {
    const name = host.replace(/^\[|\]$/g, "");
    if (!isHostAllowed(options.policy, name)) {
      throw new Refused(
        options.policy.kind === "none"
          ? "this agent has no egress"
          : `${name} is not in this agent's egress allowlist (hosting.egressDomains)`,
      );
    }
    const addresses = await resolve(name).catch(() => []);
    if (addresses.length === 0) throw new Refused(`${name} does not resolve to a public address`);
    return addresses[0]!;
  }

  function refuse(target: string, error: unknown): { status: number; text: string } {
    if (error instanceof Refused) {
      options.onRefused?.(target, error.message);
      return { status: 403, text: `egress refused: ${error.message}` };
    }
    return { status: 502, text: `egress failed: ${(error as Error).message}` };
  }

  const server = http.createServer(async (request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? "");
      if (url.protocol !== "http:") throw new Error("absolute http:// URL expected");
    } catch {
      response.writeHead(400).end("egress proxy: send an absolute http:// URL, or CONNECT for https\n");
      return;
    }
    try {
      const address = await addressFor(url.hostname);
      const upstream = http.request({
        host: address,
        port: Number(url.port || 80),
        method: request.method,
        path: url.pathname + url.search,
        headers: withoutProxyHeaders(request.headers),
        setHost: false,
      });
      upstream.on("response", (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on("error", (error) =>
        response.headersSent ? response.destroy() : void response.writeHead(502).end(refuse(url.host, error).text),
      );
      request.pipe(upstream);
    } catch (error) {
      const { status, text } = refuse(url.host, error);
      response.writeHead(status, { "content-type": "text/plain" }).end(text + "\n");
    }
  });

  server.on("connect", async (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = request.url ?? "";
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
    client.on("error", () => client.destroy());
    if (!match || Number(match[2]) > 65535) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    try {
      const address = await addressFor(match[1]!);
      const upstream = net.connect({ host: address, port: Number(match[2]) });
      upstream.once("connect", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on("error", (error) =>
        client.writable ? client.end(statusLine(refuse(target, error))) : client.destroy(),
      );
      client.on("close", () => upstream.destroy());
    } catch (error) {
      client.end(statusLine(refuse(target, error)));
    }
  });

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  fs.rmSync(options.socketPath, { force: true });
  await new Promise<void>((done, fail) => server.once("error", fail).listen(options.socketPath, () => done()));
  // The sandbox's user is not the platform's: let it connect.
  fs.chmodSync(options.socketPath, 0o666);
  return {
    socketPath: options.socketPath,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
      fs.rmSync(options.socketPath, { force: true });
    },
  };
}

function statusLine({ status, text }: { status: number; text: string }): string {
  const reason = status === 403 ? "Forbidden" : "Bad Gateway";
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
}

function withoutProxyHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const { "proxy-connection": _connection, "proxy-authorization": _authorization, ...rest } = headers;
  return rest;
}

/** DNS, keeping only public addresses that are not one of this machine's own. */
export const resolvePublic: ResolveTarget = async (host) => {
  const own = new Set(
    Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((item) => item.address)),
  );
  const found = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((entry) => entry.address);
  return found.filter((address) => isPublicAddress(address) && !own.has(address));
};
