// The node:http front for API clients' hot calls: which requests it takes (and which it leaves to
// Next), and that it writes handlers' answers as Next would — JSON in one piece, NDJSON live,
// a stream cancelled when its client goes away.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiFront, fastRoutes, matchRoute, type FastRoute } from "./api-front";

const appDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-front-"));
for (const dir of ["v1", "api", "[slug]"]) fs.mkdirSync(path.join(appDir, dir));
const statics = new Set(["v1", "api"]);

describe("matchRoute", () => {
  it("matches the hot routes with their decoded parameters, and nothing else", () => {
    const match = matchRoute(fastRoutes, "GET", "/shop%20bot/v1/session/ses_1/stream?startIndex=3", statics);
    expect(match?.params).toEqual({ slug: "shop bot", id: "ses_1" });
    expect(matchRoute(fastRoutes, "POST", "/shop/v1/session", statics)?.params).toEqual({ slug: "shop" });
    expect(matchRoute(fastRoutes, "POST", "/shop/v1/session/ses_1", statics)?.params).toEqual({
      slug: "shop",
      id: "ses_1",
    });
    expect(matchRoute(fastRoutes, "DELETE", "/shop/v1/session/ses_1", statics)).toBeUndefined();
    expect(matchRoute(fastRoutes, "GET", "/shop/v1/session/ses_1/events", statics)).toBeUndefined();
    expect(matchRoute(fastRoutes, "POST", "/shop/v1/session/", statics)).toBeUndefined();
    expect(matchRoute(fastRoutes, "POST", "/shop/v1/session/%E0%A4%A", statics)).toBeUndefined();
    // A static segment of the app is its own route (Next matches it before [slug]).
    expect(matchRoute(fastRoutes, "POST", "/v1/v1/session", statics)).toBeUndefined();
  });
});

describe("createApiFront", () => {
  let server: http.Server;
  let base: string;
  let cancelled: () => void;
  const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
  let lateCancelled: () => void;
  const lateWasCancelled = new Promise<void>((resolve) => (lateCancelled = resolve));
  let sawAbort: () => void;
  const requestAborted = new Promise<void>((resolve) => (sawAbort = resolve));
  const routes: FastRoute[] = [
    {
      method: "POST",
      segments: [":slug", "v1", "session"],
      load:
        async () =>
        async (request, { params }) =>
          Response.json(
            {
              slug: (await params).slug,
              body: await request.json(),
              origin: new URL(request.url).origin,
              auth: request.headers.get("authorization"),
            },
            { headers: { "cache-control": "no-store, no-transform" } },
          ),
    },
    {
      method: "GET",
      segments: [":slug", "v1", "session", ":id", "stream"],
      load: async () => async () => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            controller.enqueue(new TextEncoder().encode(`{"n":${sent++}}\n`));
          },
          cancel: () => cancelled(),
        });
        return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
      },
    },
    {
      method: "POST",
      segments: [":slug", "v1", "session", ":id"],
      load: async () => async () => Promise.reject(new Error("handler bug")),
    },
    {
      // Answers a stream only after its client has already gone.
      method: "GET",
      segments: [":slug", "v1", "session", ":id", "late"],
      load: async () => async (request) => {
        request.signal.addEventListener("abort", () => sawAbort(), { once: true });
        await new Promise((resolve) => setTimeout(resolve, 150));
        return new Response(
          new ReadableStream({ pull: () => new Promise(() => undefined), cancel: () => lateCancelled() }),
          { headers: { "content-type": "application/x-ndjson" } },
        );
      },
    },
    {
      method: "POST",
      segments: [":slug", "v1", "session", ":id", "stream", "unread"],
      load: async () => async () => Response.json({ ok: false, error: "payload_too_large" }, { status: 413 }),
    },
    {
      // Reads the first chunk of a body, then gives up on it (as the 1 MiB limit does).
      method: "POST",
      segments: [":slug", "v1", "session", ":id", "stream"],
      load: async () => async (request) => {
        const reader = request.body!.getReader();
        await reader.read();
        await reader.cancel();
        return Response.json({ ok: false, error: "payload_too_large" }, { status: 413 });
      },
    },
  ];

  beforeAll(async () => {
    const front = createApiFront({ appDir, routes, log: () => undefined });
    server = http.createServer((req, res) => {
      if (!front.serve(req, res)) res.writeHead(404).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers a hot call with a token itself: JSON in one piece, with the handler's headers", async () => {
    const response = await fetch(`${base}/shop/v1/session`, {
      method: "POST",
      headers: { authorization: "Bearer t", "x-forwarded-proto": "https" },
      body: JSON.stringify({ message: "hi" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).not.toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await response.json()).toEqual({
      slug: "shop",
      body: { message: "hi" },
      origin: `https://${new URL(base).host}`,
      auth: "Bearer t",
    });
  });

  it("leaves calls without a token, and other paths, to Next", async () => {
    expect(await (await fetch(`${base}/shop/v1/session`, { method: "POST", body: "{}" })).text()).toBe("next");
    expect(await (await fetch(`${base}/shop/v1/info`, { headers: { authorization: "Bearer t" } })).text()).toBe("next");
  });

  it("streams NDJSON as it is produced and cancels the stream when the client goes away", async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/shop/v1/session/ses_1/stream`, {
      headers: { authorization: "Bearer t" },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('{"n":0}\n');
    controller.abort();
    await wasCancelled;
  });

  it("answers a handler that gave up on a big body, and the client's next call still gets through", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, pathname: string, body?: Buffer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request(
          `${base}${pathname}`,
          { method, agent, headers: { authorization: "Bearer t" } },
          (response) => {
            let text = "";
            response
              .setEncoding("utf8")
              .on("data", (chunk: string) => (text += chunk))
              .on("end", () => resolve({ status: response.statusCode!, text }));
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    const big = await call("POST", "/shop/v1/session/ses_1/stream", Buffer.alloc(4 * 1024 * 1024, 120));
    expect(big.status).toBe(413);
    expect((await call("POST", "/shop/v1/session", Buffer.from('{"message":"again"}'))).status).toBe(200);
    // Refused unread, on the length it declares.
    const declared = await call("POST", "/shop/v1/session/ses_2/stream/unread", Buffer.alloc(4 * 1024 * 1024, 120));
    expect(declared.status).toBe(413);
    expect((await call("POST", "/shop/v1/session", Buffer.from('{"message":"again"}'))).status).toBe(200);
    agent.destroy();
  });

  it("cancels a stream whose client left before the handler answered, and tells the handler", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/shop/v1/session/ses_1/late`, {
      headers: { authorization: "Bearer t" },
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await pending;
    await requestAborted;
    await lateWasCancelled;
  });

  it("answers 400 to a Host header that makes no URL, and keeps serving", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${base}/shop/v1/session`,
        { method: "POST", headers: { authorization: "Bearer t", host: "a:b:c" } },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      request.on("error", reject);
      request.end("{}");
    });
    expect(status).toBe(400);
    const response = await fetch(`${base}/shop/v1/session`, {
      method: "POST",
      headers: { authorization: "Bearer t", "x-forwarded-proto": "javascript" },
      body: "{}",
    });
    expect((await response.json()).origin).toBe(`http://${new URL(base).host}`);
  });

  it("answers 500 in the wire format when a handler throws", async () => {
    const response = await fetch(`${base}/shop/v1/session/ses_1`, {
      method: "POST",
      headers: { authorization: "Bearer t" },
      body: "{}",
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: "internal_error",
      message: "Something went wrong on our side.",
    });
  });
});
