// A round-robin TCP proxy for cluster mode: one address in front of several processes of one kind
// (the workers Restate is registered with, the webs on PORT, the Restate nodes' ingress and admin
// APIs). TCP, not HTTP: it passes HTTP/2 cleartext to the workers and NDJSON streams to the webs
// as they are, and adds no forwarding headers, so a web behind it judges its callers as it would
// without it (src/server/auth/local-caller.ts).
import net from "node:net";

export type ProxyTarget = { host: string; port: number };

export type RoundRobinProxy = { url: string; close: () => Promise<void> };

export async function startRoundRobinProxy(options: {
  host: string;
  port: number;
  targets: ProxyTarget[];
}): Promise<RoundRobinProxy> {
  const { host, port, targets } = options;
  let next = 0;
  const open = new Set<net.Socket>();

  // Each connection goes to the next target; one that refuses it (a process that died and is not
  // back yet) is skipped for the one after, so a dead process costs a client nothing but latency.
  function connect(client: net.Socket, attempt: number): void {
    if (attempt === targets.length) return void client.destroy();
    const target = targets[next++ % targets.length]!;
    const upstream = net.connect({ ...target, allowHalfOpen: true });
    const refused = () => {
      if (!client.destroyed) connect(client, attempt + 1);
    };
    upstream.once("error", refused);
    upstream.once("connect", () => {
      upstream.off("error", refused);
      upstream.setNoDelay(true);
      track(upstream);
      // A clean end goes through the pipes one direction at a time (half-close); an error on
      // either side ends both at once.
      upstream.on("error", () => client.destroy());
      upstream.once("close", (hadError) => hadError && client.destroy());
      client.once("close", () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  function track(socket: net.Socket): void {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  }

  const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (client) => {
    client.setNoDelay(true);
    client.on("error", () => client.destroy());
    track(client);
    connect(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, exclusive: true }, () => resolve());
  });
  const connectHost = ["0.0.0.0", "::"].includes(host) ? "127.0.0.1" : host;
  return {
    url: `http://${connectHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
