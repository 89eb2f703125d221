// The worker's HTTP/2 (h2c) server around the Restate endpoint handler. Restate keeps its
// HTTP/2 sessions open, so closing also ends them; otherwise close() would wait forever.
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import * as restate from "@restatedev/restate-sdk";
import { createServices, type WorkerDeps } from "./services";

export type WorkerServer = { url: string; close: () => Promise<void> };

export async function startWorkerServer({ port, host, deps }: { port: number; host: string; deps: WorkerDeps }): Promise<WorkerServer> {
  const server = http2.createServer(restate.createEndpointHandler({ services: createServices(deps) }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.close();
      for (const session of sessions) session.destroy();
      await closed;
    },
  };
}
