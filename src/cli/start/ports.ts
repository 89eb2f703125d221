// Port checks for the supervisor: fail early, naming the port and the variable that changes it.
import net from "node:net";

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly component: string,
    readonly variable: string,
  ) {
    super(`Port ${port} (${component}) is already in use. Stop whatever holds it, or set ${variable} to another port.`);
    this.name = "PortInUseError";
  }
}

/** Resolves when nothing listens on host:port; throws PortInUseError otherwise. */
export async function assertPortFree(options: {
  port: number;
  host?: string;
  component: string;
  variable: string;
}): Promise<void> {
  const { port, host = "127.0.0.1", component, variable } = options;
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new PortInUseError(port, component, variable) : error);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}

/**
 * A port nothing listens on right now (for tests and throwaway stacks). Picked below Linux's
 * ephemeral range (32768–60999): a port the OS hands out for `listen(0)` comes from that range,
 * where any outgoing connection (a pg pool, an HTTP client) may take it before the server that
 * was meant to have it binds.
 */
export async function getFreePort(host = "127.0.0.1"): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = lowestPort + Math.floor(Math.random() * (highestPort - lowestPort + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port, host)) return port;
    handedOut.delete(port);
  }
  throw new Error(`found no free port between ${lowestPort} and ${highestPort} on ${host}`);
}

const lowestPort = 20_000;
const highestPort = 32_767;
// Not handed out twice by this process, even if the first taker has not bound it yet.
const handedOut = new Set<number>();

export function canListen(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
