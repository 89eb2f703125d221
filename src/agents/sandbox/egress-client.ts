// Routes agent code's HTTP through the platform's egress proxy, the sandbox's only way out (it
// has no network but an empty loopback). A local relay on that loopback forwards to the proxy's
// Unix socket, so HTTP_PROXY-aware libraries work as they are; fetch() gets undici's ProxyAgent
// as its global dispatcher, loaded from the platform's copy on the first request (an agent that
// never fetches pays nothing). This is routing, not the boundary: code that opens sockets itself
// finds no route. This file runs ONLY in the sandbox.
import { createRequire } from "node:module";
import net from "node:net";

const dispatcherKey = Symbol.for("undici.globalDispatcher.1");

type Dispatcher = {
  dispatch: (...args: unknown[]) => boolean;
  close: () => Promise<void>;
  destroy: () => Promise<void>;
};

export async function routeEgress(options: { socketPath: string; undiciPath: string }): Promise<void> {
  const relay = net.createServer((client) => {
    const upstream = net.connect(options.socketPath);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  relay.unref();
  const port = await new Promise<number>((resolve, reject) => {
    relay.once("error", reject).listen(0, "127.0.0.1", () => resolve((relay.address() as net.AddressInfo).port));
  });
  const proxyUrl = `http://127.0.0.1:${port}`;
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) process.env[name] = proxyUrl;

  let agent: Dispatcher | undefined;
  const real = () => {
    if (!agent) {
      const { ProxyAgent } = createRequire(import.meta.url)(options.undiciPath) as {
        ProxyAgent: new (url: string) => Dispatcher;
      };
      agent = new ProxyAgent(proxyUrl);
    }
    return agent;
  };
  (globalThis as Record<symbol, unknown>)[dispatcherKey] = {
    dispatch: (...args: unknown[]) => real().dispatch(...args),
    close: async () => agent?.close(),
    destroy: async () => agent?.destroy(),
  } satisfies Dispatcher;
}
