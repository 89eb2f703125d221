// The Slack and GitHub packs' channel routes behind a real HTTP server, as the web process serves
// them (src/server/agent-channels/serve-channel-route.ts), with a test's own database, engine and
// sandboxes: for tests that post what Slack or GitHub would post.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createSandboxPool, type SandboxPool } from "@/agents/sandbox/pool";
import { findChannel } from "@/server/agent-channels/find-channel";
import { packOf, packRoutes } from "@/server/agent-channels/packs";
import type { PackServices } from "@/server/agent-channels/pack-types";
import { errorResponse } from "@/server/http/respond";
import { hostCallHandler } from "@/server/turns/host-calls";

export type PackServer = { url: string; close: () => Promise<void> };

export async function startPackServer(services: Omit<PackServices, "sandboxes">): Promise<PackServer> {
  const sandboxes: SandboxPool = createSandboxPool({
    onHostCall: hostCallHandler({
      db: services.db,
      dataDir: services.dataDir,
      runtime: services.runtime,
      sandboxes: () => sandboxes,
      packs: services,
    }),
  });
  const withSandboxes: PackServices = { ...services, sandboxes: async () => sandboxes };
  const server = http.createServer((req, res) => {
    void answer(req)
      .catch((error: unknown) => errorResponse(error))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
  });
  async function answer(req: http.IncomingMessage): Promise<Response> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = /^\/([^/]+)\/v1\/channels\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
    if (!match) return new Response("not a channel route", { status: 404 });
    const [, slug, channelId, rest = ""] = match as unknown as [string, string, string, string?];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request = new Request(`${address}${req.url}`, {
      method: req.method ?? "GET",
      headers: Object.entries(req.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]],
      ),
      ...(body.length > 0 ? { body } : {}),
    });
    const found = await findChannel(services.db, slug, channelId);
    const pack = packOf(found.channel);
    if (!pack) return new Response("not a pack channel", { status: 404 });
    return packRoutes[pack]!(withSandboxes, {
      request,
      agent: found.agent,
      version: { id: found.version.id, bundlePath: path.join(services.dataDir, found.version.bundlePath) },
      channel: found.channel,
      path: rest.split("/").filter(Boolean),
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: address,
    close: async () => {
      await sandboxes.stopAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
