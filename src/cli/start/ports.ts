// Port checks for the supervisor: fail early, naming the port and the variable that changes it.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

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
 * was meant to have it binds. Each port handed out is reserved on this machine (reservePorts), so
 * processes picking at the same time — parallel test files, a CLI and the stack it starts — never
 * get the same one in the seconds before its server binds it.
 */
export async function getFreePort(host = "127.0.0.1"): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = lowestPort + Math.floor(Math.random() * (highestPort - lowestPort + 1));
    if (!reservePorts([port])) continue;
    if (await canListen(port, host)) return port;
    releasePorts([port]);
  }
  throw new Error(`found no free port between ${lowestPort} and ${highestPort} on ${host}`);
}

const lowestPort = 20_000;
const highestPort = 32_767;

/** How long a reservation holds: the longest a stack takes from picking its ports to binding them
 * (a first start builds the web app), with room for a restart on the same ports. */
const reservationMs = 30 * 60_000;
const reservations = path.join(os.tmpdir(), `agentfold-ports-${process.getuid?.() ?? "user"}`);

/**
 * Reserves every port of `ports` for this process, or none: false when another reservation younger
 * than reservationMs holds one of them. A reservation is a file created exclusively, so it holds
 * across processes; it lapses on its own (a stopped stack's ports are free to listen on, and
 * canListen still refuses one that is taken).
 */
export function reservePorts(ports: number[]): boolean {
  fs.mkdirSync(reservations, { recursive: true });
  const taken: number[] = [];
  for (const port of ports) {
    const file = path.join(reservations, String(port));
    if (!createOrRenew(file)) {
      releasePorts(taken);
      return false;
    }
    taken.push(port);
  }
  return true;
}

/** Gives back reservations of this process's that it will not use. */
export function releasePorts(ports: number[]): void {
  for (const port of ports) fs.rmSync(path.join(reservations, String(port)), { force: true });
}

function createOrRenew(file: string): boolean {
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  if (age < reservationMs) return false;
  // Stale: whoever removes it first may create it again, exclusively.
  fs.rmSync(file, { force: true });
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

export function canListen(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
