// Entry point of the `web` process: the Next.js app (dashboard, playground, every route) behind a
// node:http server that answers API clients' hot /v1 calls itself (./api-front.ts).
import http from "node:http";
import path from "node:path";
import next from "next";
import { projectRoot } from "@/cli/start/project";
import { env } from "@/env";
import { stampPeerAddress } from "@/server/auth/client-address";
import { nameProcess, processLogger } from "@/server/logging/logger";
import { createApiFront } from "./api-front";

const config = env();
nameProcess("web");
const host = config.AGENTFOLD_WEB_HOST ?? "127.0.0.1";
const port = config.AGENTFOLD_WEB_PORT ?? 3000;

const app = next({ dev: false, dir: projectRoot, hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();
const front = createApiFront({ appDir: path.join(projectRoot, "src", "app") });

const server = http.createServer((req, res) => {
  // Before anything reads the request: the sign-in rate limit trusts this header, never the client's.
  stampPeerAddress(req);
  if (front.serve(req, res)) return;
  void handle(req, res);
});
await new Promise<void>((resolve, reject) => {
  server.once("error", reject);
  server.listen(port, host, resolve);
});
processLogger().info(`web listening on http://${host}:${port}`);

let isStopping = false;
async function shutdown(): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  server.close();
  // Open streams would hold close() forever; the supervisor waits for this process to exit.
  server.closeAllConnections();
  await app.close().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
