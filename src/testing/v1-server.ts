// Every /v1 route handler behind a real HTTP server, as the web process serves them: requests
// with a bearer token through the API front (src/server/web/api-front.ts), the rest decoded as
// Next does (path parameters URI-decoded). For tests that send what any client could send.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as agentVersions from "@/app/v1/agents/[slug]/versions/route";
import * as agents from "@/app/v1/agents/route";
import * as devSchedule from "@/app/[slug]/v1/dev/schedules/[name]/route";
import * as info from "@/app/[slug]/v1/info/route";
import * as schedule from "@/app/[slug]/v1/schedules/[name]/route";
import * as schedules from "@/app/[slug]/v1/schedules/route";
import * as secret from "@/app/[slug]/v1/secrets/[name]/route";
import * as secrets from "@/app/[slug]/v1/secrets/route";
import * as approval from "@/app/[slug]/v1/session/[id]/approvals/[callId]/route";
import * as events from "@/app/[slug]/v1/session/[id]/events/route";
import * as reminder from "@/app/[slug]/v1/session/[id]/reminders/[name]/route";
import * as reminders from "@/app/[slug]/v1/session/[id]/reminders/route";
import * as resume from "@/app/[slug]/v1/session/[id]/resume/route";
import * as session from "@/app/[slug]/v1/session/[id]/route";
import * as stop from "@/app/[slug]/v1/session/[id]/stop/route";
import * as stream from "@/app/[slug]/v1/session/[id]/stream/route";
import * as sessionTool from "@/app/[slug]/v1/session/[id]/tools/[name]/route";
import * as sessions from "@/app/[slug]/v1/session/route";
import * as tool from "@/app/[slug]/v1/tools/[name]/route";
import * as unsluggedSession from "@/app/v1/session/[id]/route";
import * as unsluggedSessions from "@/app/v1/session/route";
import * as unsluggedStream from "@/app/v1/session/[id]/stream/route";
import { createApiFront, matchRoute, type FastRoute } from "@/server/web/api-front";
import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/http/respond";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Each route as `METHOD /path/:param` and its handler; `:slug/v1/…` per agent, `v1/…` unslugged. */
const table: [string, unknown][] = [
  ["GET v1/agents", agents.GET],
  ["POST v1/agents/:slug/versions", agentVersions.POST],
  ["POST v1/session", unsluggedSessions.POST],
  ["GET v1/session", unsluggedSessions.GET],
  ["POST v1/session/:id", unsluggedSession.POST],
  ["GET v1/session/:id", unsluggedSession.GET],
  ["DELETE v1/session/:id", unsluggedSession.DELETE],
  ["GET v1/session/:id/stream", unsluggedStream.GET],
  ["POST :slug/v1/session", sessions.POST],
  ["GET :slug/v1/session", sessions.GET],
  ["POST :slug/v1/session/:id", session.POST],
  ["GET :slug/v1/session/:id", session.GET],
  ["DELETE :slug/v1/session/:id", session.DELETE],
  ["POST :slug/v1/session/:id/resume", resume.POST],
  ["POST :slug/v1/session/:id/stop", stop.POST],
  ["GET :slug/v1/session/:id/stream", stream.GET],
  ["GET :slug/v1/session/:id/events", events.GET],
  ["GET :slug/v1/session/:id/reminders", reminders.GET],
  ["DELETE :slug/v1/session/:id/reminders/:name", reminder.DELETE],
  ["POST :slug/v1/session/:id/approvals/:callId", approval.POST],
  ["POST :slug/v1/session/:id/tools/:name", sessionTool.POST],
  ["POST :slug/v1/tools/:name", tool.POST],
  ["GET :slug/v1/info", info.GET],
  ["GET :slug/v1/schedules", schedules.GET],
  ["PATCH :slug/v1/schedules/:name", schedule.PATCH],
  ["POST :slug/v1/dev/schedules/:name", devSchedule.POST],
  ["GET :slug/v1/secrets", secrets.GET],
  ["PUT :slug/v1/secrets/:name", secret.PUT],
  ["DELETE :slug/v1/secrets/:name", secret.DELETE],
];

export const v1Routes: FastRoute[] = table.map(([route, handler]) => {
  const [method, pattern] = route.split(" ") as [string, string];
  return { method, segments: pattern.split("/"), load: async () => handler as Handler };
});

export type V1Server = { url: string; close: () => Promise<void> };

export async function startV1Server(): Promise<V1Server> {
  // No static top-level folders: `v1/…` is matched by the table, before `:slug/v1/…`.
  const appDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-v1-app-"));
  const front = createApiFront({ appDir, routes: v1Routes });
  const server = http.createServer((req, res) => {
    if (front.serve(req, res)) return;
    serveWithoutFront(req, res).catch((error: unknown) => {
      console.error("v1 test server:", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(appDir, { recursive: true, force: true });
    },
  };
}

/** A request the front leaves to Next (no bearer token, or no route): the same handlers. */
async function serveWithoutFront(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const match = matchRoute(v1Routes, req.method ?? "GET", req.url ?? "/", new Set());
  let response: Response;
  if (!match) response = errorResponse(new AppError("not_found", "no route"));
  else {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    response = await (await match.route.load())(request, { params: Promise.resolve(match.params) });
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // Streams are cut after their first chunk: these tests judge answers by their status.
  const reader = response.body?.getReader();
  const first = await reader?.read();
  if (first?.value) res.write(first.value);
  await reader?.cancel().catch(() => undefined);
  res.end();
}
