// The ports of a dev stack. The web port is the one asked for (3000 by default), else the next
// free one; `--port 0` takes any. The others are the state root's own, kept in ports.json so a
// restart finds Postgres, Restate and the worker where they were (Restate keeps the worker's
// address), and replaced only when something else holds one.
import fs from "node:fs";
import path from "node:path";
import { canListen, getFreePort } from "@/cli/start/ports";

export type DevPorts = { web: number; worker: number; postgres: number; ingress: number; admin: number; node: number };

/** How far past a busy preferred port the web looks. */
const webTries = 50;

export async function webPort(preferred: number): Promise<number> {
  if (preferred === 0) return getFreePort();
  for (let port = preferred; port < preferred + webTries && port <= 65_535; port++)
    if (await canListen(port)) return port;
  throw new Error(`ports ${preferred}–${preferred + webTries - 1} are all in use; pass --port <n> or --port 0`);
}

export async function devPorts(stateRoot: string, preferredWeb: number): Promise<DevPorts> {
  const file = path.join(stateRoot, "ports.json");
  let saved: Partial<DevPorts> = {};
  try {
    saved = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<DevPorts>;
  } catch {
    // First start, or a file that is not ours: new ports.
  }
  const web = await webPort(preferredWeb);
  const keep = async (port: number | undefined) =>
    port && port !== web && (await canListen(port)) ? port : getFreePort();
  const ports: DevPorts = {
    web,
    worker: await keep(saved.worker),
    postgres: await keep(saved.postgres),
    ingress: await keep(saved.ingress),
    admin: await keep(saved.admin),
    node: await keep(saved.node),
  };
  fs.mkdirSync(stateRoot, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ ...ports, web: undefined }, null, 2)}\n`);
  return ports;
}
