// Entry point of the `worker` process: the Restate service endpoint. Uploaded agent code never
// runs here; it runs only in sandbox processes this worker spawns.
import "./polyfill";
import http2 from "node:http2";
import * as restate from "@restatedev/restate-sdk";
import { env } from "@/env";
import { services } from "./services";

const config = env();
const handler = restate.createEndpointHandler({ services });
// Restate speaks HTTP/2 cleartext (h2c) to deployments.
const server = http2.createServer(handler);

server.listen(config.WORKER_PORT, config.AGENTFOLD_HOST, () => {
  console.log(`worker listening on http://${config.AGENTFOLD_HOST}:${config.WORKER_PORT}`);
});

function shutdown(): void {
  server.close(() => process.exit(0));
  // Open HTTP/2 sessions from Restate keep close() waiting; do not wait forever.
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
