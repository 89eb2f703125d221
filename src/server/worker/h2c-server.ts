// An HTTP/2 cleartext (h2c) server, the protocol Restate uses to reach the worker. Restate keeps
// its HTTP/2 sessions open, so closing also ends them; otherwise close() would wait forever.
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

export type H2cServer = { port: number; close: () => Promise<void> };

type Handler = (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => void;

/** Listens on port and host (port 0: any free one); answers with the port it got. */
export async function listenH2c(handler: Handler, port: number, host: string): Promise<H2cServer> {
  const server = http2.createServer(handler);
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
    port: address.port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.close();
      for (const session of sessions) session.destroy();
      await closed;
    },
  };
}
