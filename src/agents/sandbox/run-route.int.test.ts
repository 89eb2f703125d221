// A channel route inside a real sandbox: the auth chain, body and query schemas, the handler's
// Response, send() as a host call, and waitUntil work that ends the call after the answer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import { writeFiles } from "@/testing/folders";
import type { RouteRequest } from "./protocol";
import { callRoute } from "./route-call";
import { createSandbox } from "./sandbox";

const channel = `import { bearerAuth, defineChannel, GET, POST } from "agentfold/channels";
import { z } from "zod";
export default defineChannel({
  auth: [bearerAuth("\${HOOK_SECRET}")],
  onStart: async () => {},
  routes: [
    POST("/tickets/:id", {
      bodySchema: z.object({ text: z.string() }),
      handler: async (request, { body, params, auth, send, waitUntil }) => {
        const session = await send(body.text, { continuationToken: "ticket:" + params.id });
        waitUntil(new Promise((resolve) => setTimeout(resolve, 300)));
        return Response.json({ id: params.id, text: body.text, who: auth, session: session.id, header: request.headers.get("x-test") }, { status: 202, headers: { "x-route": "tickets" } });
      },
    }),
    GET("/search", { querySchema: z.object({ q: z.string().min(2) }), handler: async (_request, { query }) => new Response("found " + query.q) }),
    GET("/boom", { handler: async () => { throw new Error("the handler broke"); } }),
    GET("/ticks", { handler: async () => new Response(new ReadableStream({ async start(controller) {
      for (let i = 0; i < 3; i++) { controller.enqueue(new TextEncoder().encode("tick " + i + "\\n")); await new Promise((r) => setTimeout(r, 200)); }
      controller.close();
    } })) }),
  ],
});
`;

const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-route-"));
let loaded: LoadedAgent;
const sent: unknown[] = [];

beforeAll(async () => {
  writeFiles(path.join(root, "agent"), { "bot/instructions.md": "x", "bot/channels/hooks.ts": channel });
  loaded = await loadAgentFolder({ folderDir: path.join(root, "agent"), outDir: path.join(root, "bundle") });
  expect(loaded.diagnostics.filter((d) => d.level === "error")).toEqual([]);
  // Accepted but not run here, and validate says so.
  expect(loaded.diagnostics).toContainEqual({
    level: "warning",
    file: "bot/channels/hooks.ts",
    line: expect.any(Number),
    message: expect.stringMatching(/^defineChannel\(\): onStart is ignored on Agentfold: /),
  });
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const sandbox = () =>
  createSandbox({
    bundlePath: loaded.bundlePath!,
    writableDirs: [path.join(root, "ws")],
    readSecrets: async () => ({ HOOK_SECRET: "s3cret-value" }),
    onHostCall: async ({ method, params }) => {
      sent.push({ method, params });
      return { id: "ses_made", deliveryId: "dlv_1" };
    },
  });

const request = (over: Partial<RouteRequest>): RouteRequest => ({
  channelId: "hooks",
  file: "bot/channels/hooks.ts",
  method: "POST",
  pattern: "/tickets/:id",
  url: "http://localhost/demo/v1/channels/hooks/tickets/42",
  params: { id: "42" },
  query: {},
  headers: { authorization: "Bearer s3cret-value", "x-test": "yes", "content-type": "application/json" },
  body: Buffer.from(JSON.stringify({ text: "hello" })).toString("base64"),
  isDirectLoopback: false,
  ...over,
});

type Answered = { status: number; headers: [string, string][]; text: string; headAt: number; doneAt: number };

/** One route call as the web makes it: the head, the body read to its end, then the call's end. */
async function answer(box: ReturnType<typeof sandbox>, routeRequest: RouteRequest): Promise<Answered> {
  const call = await callRoute(box, routeRequest, { hostContext: {} });
  const headAt = Date.now();
  const text = await new Response(call.body).text();
  await call.done;
  return { status: call.status, headers: call.headers, text, headAt, doneAt: Date.now() };
}

describe("channel routes in the sandbox", () => {
  it("admits the chain's bearer secret, runs the handler and answers before its waitUntil work ends", async () => {
    const box = sandbox();
    const answered = await answer(box, request({}));
    // The handler's waitUntil waits 300 ms: the answer came before.
    expect(answered.doneAt - answered.headAt).toBeGreaterThanOrEqual(200);
    expect(answered.status).toBe(202);
    expect(answered.headers).toContainEqual(["x-route", "tickets"]);
    expect(JSON.parse(answered.text)).toEqual({
      id: "42",
      text: "hello",
      who: { kind: "app", id: "channel:hooks" },
      session: "ses_made",
      header: "yes",
    });
    expect(sent).toContainEqual({
      method: "session.send",
      params: { channelId: "hooks", message: "hello", options: { continuationToken: "ticket:42" } },
    });
    await box.stop();
  });

  it("streams a body as the handler writes it", async () => {
    const box = sandbox();
    const call = await callRoute(box, request({ method: "GET", pattern: "/ticks", params: {}, body: undefined }), {
      hostContext: {},
    });
    const reader = call.body.getReader();
    const first = await reader.read();
    const firstAt = Date.now();
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read())
      rest += Buffer.from(read.value).toString();
    expect(Buffer.from(first.value!).toString()).toBe("tick 0\n");
    expect(rest).toBe("tick 1\ntick 2\n");
    // The first piece arrived while the handler was still writing (200 ms between pieces).
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(300);
    await box.stop();
  });

  it("answers 401 when the chain admits nobody, 400 with issues for a bad body or query", async () => {
    const box = sandbox();
    const denied = await answer(box, request({ headers: { authorization: "Bearer wrong" } }));
    expect(denied.status).toBe(401);
    const admitted = { principal: { kind: "app" as const, id: "token:1" } };
    const badBody = await answer(
      box,
      request({ ...admitted, body: Buffer.from(JSON.stringify({ text: 7 })).toString("base64") }),
    );
    expect(badBody.status).toBe(400);
    expect(JSON.parse(badBody.text)).toMatchObject({ error: "invalid_request", issues: [{ path: ["body", "text"] }] });
    const search = (q: string) =>
      answer(
        box,
        request({ ...admitted, method: "GET", pattern: "/search", params: {}, query: { q }, body: undefined }),
      );
    expect((await search("x")).status).toBe(400);
    expect((await search("xyz")).text).toBe("found xyz");
    await box.stop();
  });

  it("turns a handler's throw into a failed call, not a crash", async () => {
    const box = sandbox();
    const boom = request({ method: "GET", pattern: "/boom", params: {}, body: undefined });
    await expect(callRoute(box, boom, { hostContext: {} })).rejects.toThrow("the handler broke");
    expect((await answer(box, request({}))).status).toBe(202);
    await box.stop();
  });
});
