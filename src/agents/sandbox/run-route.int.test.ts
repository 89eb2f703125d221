// A channel route inside a real sandbox: the auth chain, body and query schemas, the handler's
// Response, send() as a host call, and waitUntil work that ends the call after the answer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import { writeFiles } from "@/testing/folders";
import type { RouteAnswer, RouteRequest } from "./protocol";
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
    message: "onStart is not run by this platform yet",
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

const bodyOf = (answer: RouteAnswer) => Buffer.from(answer.body, "base64").toString("utf8");

describe("channel routes in the sandbox", () => {
  it("admits the chain's bearer secret, runs the handler and answers before its waitUntil work ends", async () => {
    const box = sandbox();
    let early: RouteAnswer | undefined;
    let earlyAt = 0;
    const started = Date.now();
    const final = await box.call("runRoute", request({}), {
      hostContext: {},
      onPartial: (answer) => ((early = answer as RouteAnswer), (earlyAt = Date.now())),
    });
    expect(early).toEqual(final);
    expect(earlyAt - started).toBeLessThan(Date.now() - started);
    expect(final.status).toBe(202);
    expect(final.headers).toContainEqual(["x-route", "tickets"]);
    expect(JSON.parse(bodyOf(final))).toEqual({
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

  it("answers 401 when the chain admits nobody, 400 with issues for a bad body or query", async () => {
    const box = sandbox();
    const denied = await box.call("runRoute", request({ headers: { authorization: "Bearer wrong" } }), {
      hostContext: {},
    });
    expect(denied.status).toBe(401);
    const admitted = { principal: { kind: "app" as const, id: "token:1" } };
    const badBody = await box.call(
      "runRoute",
      request({ ...admitted, body: Buffer.from(JSON.stringify({ text: 7 })).toString("base64") }),
      { hostContext: {} },
    );
    expect(badBody.status).toBe(400);
    expect(JSON.parse(bodyOf(badBody))).toMatchObject({
      error: "invalid_request",
      issues: [{ path: ["body", "text"] }],
    });
    const search = (q: string) =>
      box.call(
        "runRoute",
        request({ ...admitted, method: "GET", pattern: "/search", params: {}, query: { q }, body: undefined }),
        { hostContext: {} },
      );
    expect((await search("x")).status).toBe(400);
    expect(bodyOf(await search("xyz"))).toBe("found xyz");
    await box.stop();
  });

  it("turns a handler's throw into a failed call, not a crash", async () => {
    const box = sandbox();
    const boom = request({ method: "GET", pattern: "/boom", params: {}, body: undefined });
    await expect(box.call("runRoute", boom, { hostContext: {} })).rejects.toThrow("the handler broke");
    expect((await box.call("runRoute", request({}), { hostContext: {} })).status).toBe(202);
    await box.stop();
  });
});
