// Port checks for the supervisor: fail early, naming the port and the variable that changes it.
import net from "node:net";

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly component: string,
    readonly variable: string,
  ) {
    super(
      `Port ${port} (${component}) is already in use. Stop whatever holds it, or set ${variable} to another port.`,
    );
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

/** A port the OS considers free right now (for tests and throwaway stacks). */
export async function getFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
