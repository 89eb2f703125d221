// The dashboard's tRPC API (/api/trpc) behind a real HTTP server, as the Next route serves it, with
// a sign-in cookie sealed as NextAuth seals it: for tests that drive what a dashboard page does.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, httpLink } from "@trpc/client";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { encode } from "next-auth/jwt";
import { authSecret, env } from "@/env";
import { createContext } from "@/server/trpc/context";
import { type AppRouter, appRouter } from "@/server/trpc/root";

export type DashboardServer = {
  url: string;
  /** A tRPC client signed in as the user, sending what the dashboard's own pages send. */
  clientFor: (userId: string) => Promise<ReturnType<typeof createTRPCClient<AppRouter>>>;
  close: () => Promise<void>;
};

export async function startDashboardServer(): Promise<DashboardServer> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
    });
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      createContext: () => createContext(request),
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientFor: async (userId) => {
      const cookie = `next-auth.session-token=${await encode({ token: { sub: userId }, secret: authSecret(env()) })}`;
      return createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${url}/api/trpc`, headers: { cookie, origin: url } })],
      });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
