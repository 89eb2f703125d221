// Bad input on every /v1 route is a 4xx, never a 5xx (docs/api.md#validation): the known cases,
// then a property-based fuzz of bodies, query parameters, path ids and headers, sent over HTTP
// to the real route handlers on a real Postgres, Restate and worker. Bounded for CI: at most
// 2,000 requests; fast-check stops at the first failure (no shrinking) to stay inside it.
import "@/server/durable/polyfill";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { getFreePort } from "@/cli/start/ports";
import { startEmbeddedRestate, type EmbeddedRestate } from "@/cli/start/restate";
import { processCredentialCache } from "@/server/auth/credential-cache";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { startWorkerServer, type WorkerServer } from "@/server/worker/endpoint";
import { createToken } from "@/server/tokens/create-token";
import { createTestAgent, testManifest } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { processLogger } from "@/server/logging/logger";
import { startV1Server, type TestRoute, v1Routes, type V1Server } from "@/testing/v1-server";

const fuzzRuns = 900;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bad-input-"));
let db: PrismaClient;
let restate: EmbeddedRestate;
let worker: WorkerServer;
let server: V1Server;
let slug = "";
let bearer = "";
/** A chat session of the token's, and its latest continuation token (follow-ups rotate it). */
const live = { sessionId: "", continuationToken: "" };
let requestCount = 0;

// What would show a crash or an unmapped fault: errors logged by the route helper or the API
// front, and anything thrown outside a request.
const faults: string[] = [];
const onFault = (error: unknown) => faults.push(`uncaught: ${String((error as Error)?.stack ?? error)}`);

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl(inject("databaseUrl"));
  db = createDb(databaseUrl);
  // Its own Restate and worker: sends are accepted and turns run on the offline model.
  restate = await startEmbeddedRestate({
    dataDir,
    ports: { ingress: await getFreePort(), admin: await getFreePort(), node: await getFreePort() },
    log: () => undefined,
  });
  const { team, agent, version } = await createTestAgent(db);
  await db.agentVersion.update({
    where: { id: version.id },
    data: { manifest: testManifest({ instructionsText: "You are a test agent." }) },
  });
  slug = agent.slug;
  bearer = `Bearer ${(await createToken({ db, teamId: team.id, name: "fuzz", actions: ["*"] })).token}`;
  // The route handlers read their configuration from the environment on first use, and so does
  // the worker: it is set before the worker starts. The unslugged /v1/session… routes serve this agent.
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    AGENTFOLD_DATA_DIR: dataDir,
    AGENTFOLD_SINGLE_AGENT: slug,
    RESTATE_INGRESS_URL: restate.ingressUrl,
    RESTATE_ADMIN_URL: restate.adminUrl,
  });
  const runtime = createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl });
  worker = await startWorkerServer({
    port: 0,
    host: "127.0.0.1",
    identityKeys: [restate.identityKey],
    deps: { db, dataDir, models: {}, defaultModel: "local:scripted", runtime },
  });
  await runtime.registerWorker(worker.url);
  // Faults are what the web's log says about a route (respond.ts, api-front.ts) or the test server.
  const isFault = (text: string) =>
    /unhandled error in a route|reached the database unchecked|api front:|v1 test server/i.test(text);
  const logError = console.error.bind(console);
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (isFault(String(args[0]))) faults.push(args.map(String).join(" "));
    logError(...args);
  });
  for (const level of ["error", "warn"] as const) {
    const original = processLogger()[level].bind(processLogger());
    vi.spyOn(processLogger(), level).mockImplementation(((...args: unknown[]) => {
      const text = args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" ");
      if (isFault(text)) faults.push(text);
      (original as (...a: unknown[]) => void)(...args);
    }) as never);
  }
  process.on("uncaughtException", onFault);
  process.on("unhandledRejection", onFault);
  server = await startV1Server();
  const started = await send({
    method: "POST",
    path: `/${slug}/v1/session`,
    body: JSON.stringify({ message: "hello" }),
  });
  expect(started.status).toBe(200);
  Object.assign(live, { sessionId: started.json.sessionId, continuationToken: started.json.continuationToken });
}, 180_000);

afterAll(async () => {
  process.off("uncaughtException", onFault);
  process.off("unhandledRejection", onFault);
  vi.restoreAllMocks();
  await server?.close();
  await worker?.close();
  await restate?.stop();
  if (process.env.DATABASE_URL) await (await processCredentialCache(process.env.DATABASE_URL)).close();
  await db?.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Sent = { method: string; path: string; body?: string; headers?: Record<string, string>; route?: TestRoute };

/** One request; a stream is cut once its status is known. */
async function send(request: Sent): Promise<{ status: number; text: string; json: any }> {
  requestCount++;
  const headers: Record<string, string> = {
    authorization: bearer,
    "content-type": "application/json",
    ...request.headers,
  };
  for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name];
  const controller = new AbortController();
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers,
    body: request.body,
    signal: controller.signal,
  });
  const isStream = response.headers.get("content-type")?.includes("ndjson") && request.path.includes("/stream");
  const text = isStream ? "" : await response.text();
  controller.abort();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

const post = (path: string, body: unknown) => send({ method: "POST", path, body: JSON.stringify(body) });
const get = (path: string) => send({ method: "GET", path });

describe("known bad input", () => {
  it("refuses strings Postgres cannot store with 400 invalid_input, on every field that reaches it", async () => {
    const start = `/${slug}/v1/session`;
    const refused = [
      await post(start, { message: "a\u0000b" }),
      await post(start, { message: "\ud800 lone" }),
      await post(start, { message: "hi", title: "t\u0000" }),
      await post(start, { message: "hi", title: "\udfff" }),
      await post(start, { message: "hi", deliveryId: "d\u0000" }),
      await post(start, { message: "hi", workspaceFiles: { "a.md": "nul\u0000" } }),
      await post("/v1/session", { message: "a\u0000b" }),
      await post(`/${slug}/v1/session/${live.sessionId}`, {
        continuationToken: live.continuationToken,
        message: "a\u0000",
      }),
      await post(`/${slug}/v1/session/${live.sessionId}/approvals/call_1`, { decision: "deny", reason: "\u0000" }),
      await send({ method: "POST", path: start, body: '{"message":"\\ud800"}' }),
    ];
    expect(refused.map((r) => [r.status, r.json?.error])).toEqual(refused.map(() => [400, "invalid_input"]));
    // The refused follow-up did not use up the token.
    const next = await post(`/${slug}/v1/session/${live.sessionId}`, {
      continuationToken: live.continuationToken,
      message: "still here",
    });
    expect(next.status).toBe(200);
    live.continuationToken = next.json.continuationToken;
  });

  it("refuses workspaceFiles keys the worker cannot write as a file, naming the key", async () => {
    for (const key of [".", "..", "x/", "/etc/passwd", "a//b", "a/../b", "../up"]) {
      const answer = await post(`/${slug}/v1/session`, {
        message: "hi",
        workspaceFiles: { "fine.md": "ok", [key]: "a" },
      });
      expect(answer.status, key).toBe(400);
      expect(answer.json).toMatchObject({
        ok: false,
        error: "invalid_input",
        issues: [{ path: ["workspaceFiles", key], message: expect.stringContaining(`'${key}'`) }],
      });
    }
    const followUp = await post(`/${slug}/v1/session/${live.sessionId}`, {
      continuationToken: live.continuationToken,
      message: "hi",
      workspaceFiles: { ".": "a" },
    });
    expect(followUp).toMatchObject({ status: 400, json: { error: "invalid_input" } });
    expect((await post(`/${slug}/v1/session`, { message: "hi", workspaceFiles: { "notes/a.md": "ok" } })).status).toBe(
      200,
    );
  });

  it("refuses integers past their range and NUL in query parameters", async () => {
    const session = `/${slug}/v1/session/${live.sessionId}`;
    for (const query of [
      "startIndex=2147483648",
      "startIndex=-1",
      "startIndex=1.5",
      "startIndex=%00",
      "limit=10001",
      "limit=0",
    ]) {
      expect((await get(`${session}/events?${query}`)).status, query).toBe(400);
    }
    expect((await get(`${session}/stream?startIndex=2147483648`)).status).toBe(400);
    expect((await get(`${session}/events?startIndex=2147483647`)).status).toBe(200);
    for (const query of ["q=%00", "q=a%00b", "cursor=%00", "cursor=x", "channel=%00", "limit=2147483648"]) {
      expect((await get(`/${slug}/v1/session?${query}`)).status, query).toBe(400);
    }
  });

  it("answers 400 or 404 for ids that cannot be, in every path position", async () => {
    const session = `/${slug}/v1/session`;
    const answers = {
      nulSession: await get(`${session}/ses_%00`),
      nulSessionTail: await get(`${session}/ses_abc%00`),
      longSession: await get(`${session}/ses_${"a".repeat(65)}`),
      nulCall: await post(`${session}/${live.sessionId}/approvals/%00`, { decision: "approve" }),
      spaceCall: await post(`${session}/${live.sessionId}/approvals/a%20b`, { decision: "approve" }),
      nulReminder: await send({ method: "DELETE", path: `${session}/${live.sessionId}/reminders/%00` }),
      nulTool: await post(`/${slug}/v1/tools/%00`, {}),
      nulSchedule: await send({ method: "PATCH", path: `/${slug}/v1/schedules/%00`, body: '{"paused":true}' }),
      nulUploadSlug: await send({ method: "POST", path: "/v1/agents/%00/versions", body: "x" }),
    };
    for (const [name, answer] of Object.entries(answers)) expect([name, answer.status]).toEqual([name, 400]);
    for (const slugSegment of ["%00", "a%00", "%ZZ", "%", "x".repeat(65)]) {
      expect((await get(`/${slugSegment}/v1/info`)).json, slugSegment).toMatchObject({ error: "not_found" });
    }
    expect((await get(`${session}/ses_doesnotexist`)).status).toBe(404);
    expect((await post(`${session}/${live.sessionId}/approvals/call_unknown`, { decision: "approve" })).status).toBe(
      404,
    );
  });
});

// Strings as clients send them: UTF-16 units (lone surrogates included), NUL, escapes, numbers
// past int4, path tricks, and plain text.
const utf16 = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  maxLength: 24,
});
const tricky = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "%00",
  "%ZZ",
  "..",
  ".",
  "x/",
  "/etc/passwd",
  "a//b",
  "a\\b",
  "2147483648",
  "-1",
  "1e309",
  "NaN",
  "0x10",
  "",
  " ",
  "ses_",
  `ses_${"f".repeat(65)}`,
  "😀",
  "null",
  "[]",
  "{}",
  "x".repeat(2_000),
);
const text = fc.oneof(
  { weight: 3, arbitrary: tricky },
  { weight: 3, arbitrary: utf16 },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 40,
});

/** A field's plausible value, so requests get past the first check and reach the database. */
const plausible: Record<string, () => fc.Arbitrary<unknown>> = {
  message: () => fc.constantFrom("hello", "how are you?"),
  title: () => fc.constant("a title"),
  workspaceFiles: () => fc.constantFrom({ "notes.md": "x" }, { "d/b.txt": "y", "c.md": "" }),
  dryRun: () => fc.boolean(),
  deliveryId: () => fc.stringMatching(/^[A-Za-z0-9_:.-]{1,40}$/),
  continuationToken: () => fc.constant(live.continuationToken),
  admission: () => fc.constantFrom("preempt", "coalesce"),
  decision: () => fc.constantFrom("approve", "deny"),
  reason: () => fc.constant("because"),
  input: () => anyJson,
  paused: () => fc.boolean(),
  value: () => fc.constant("secret-value"),
  ids: () => fc.constantFrom(["refunds"], ["nope"], []),
  tags: () => fc.constantFrom(["smoke"], []),
  iterations: () => fc.constantFrom(1, 2),
  name: () => fc.constantFrom("ci", "cli on laptop"),
  actions: () => fc.constantFrom(["sessions:read"], ["*"], ["tokens:write", "agents:read"]),
  agents: () => fc.constantFrom([], ["echo"]),
  expiresInDays: () => fc.constantFrom(1, 30),
  // Never the run's own token: revoking it would end the run.
  token: () => fc.constantFrom("af_not_a_token", "af_"),
  hostname: () => fc.constantFrom("laptop", "build-box.local"),
  requestId: () => fc.stringMatching(/^clr_[A-Za-z0-9_-]{43}$/),
};

/** The fields of a route's JSON body, from its schema in the route table. */
function bodyFields(route: TestRoute): string[] {
  const body = route.entry.body;
  return body instanceof z.ZodObject ? Object.keys(body.shape) : [];
}

/** Fields a body cannot leave out (its schema refuses undefined for them). */
function requiredFields(route: TestRoute): string[] {
  const body = route.entry.body;
  if (!(body instanceof z.ZodObject)) return [];
  return Object.entries(body.shape as Record<string, z.ZodType>)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([field]) => field);
}

// Functions, as below: the session and token exist only once the run has set them up.
const queryFields = (): Record<string, Record<string, fc.Arbitrary<string>>> => ({
  session: {
    limit: fc.constantFrom("1", "20", "100"),
    cursor: fc.constant(live.sessionId),
    channel: fc.constant("http"),
    mode: fc.constantFrom("chat", "task"),
    status: fc.constant("running"),
    q: fc.constant("ses"),
  },
  stream: { startIndex: fc.constantFrom("0", "1", "2147483647"), heartbeat: fc.constantFrom("0", "1") },
  events: { startIndex: fc.constantFrom("0", "3", "2147483647"), limit: fc.constantFrom("1", "10000") },
  versions: { team: fc.constant("team"), activate: fc.constantFrom("true", "false") },
  runs: { limit: fc.constantFrom("1", "20", "200") },
});

/** A string as a URL component; lone surrogates (which encodeURIComponent refuses) as invalid UTF-8. */
function component(value: string): string {
  return [...value].map((char) => (/^[\ud800-\udfff]$/.test(char) ? "%ED%A0%80" : encodeURIComponent(char))).join("");
}

const rawSegment = fc.constantFrom("%00", "%ZZ", "%", "%2F", "%2e%2e", "ses_%00", "ses_abc%00", "%C0%80", "%ED%A0%80");

function pathParam(name: string, isDelete: boolean): fc.Arbitrary<string> {
  const garbage = fc.oneof(rawSegment, text.filter((value) => value !== "").map(component), poisoned.map(component));
  const plausibleValue: Record<string, fc.Arbitrary<string>> = {
    slug: fc.constant(slug),
    // DELETE never takes the live session: the rest of the run needs it.
    id: isDelete
      ? fc.stringMatching(/^ses_[0-9a-f]{32}$/)
      : fc.oneof(
          { weight: 4, arbitrary: fc.constant(live.sessionId) },
          { weight: 1, arbitrary: fc.stringMatching(/^ses_[0-9a-f]{32}$/) },
        ),
    callId: fc.constantFrom("call_1", "toolu_01abc"),
    name: fc.constantFrom("API_KEY", "daily", "search"),
    runId: fc.stringMatching(/^evr_[0-9a-f]{24}$/),
  };
  return fc.oneof(
    { weight: 3, arbitrary: plausibleValue[name] ?? fc.constant("x") },
    { weight: 1, arbitrary: garbage },
  );
}

// A value Postgres cannot store, inside otherwise plausible text.
const poison = fc.constantFrom("\u0000", "\ud800", "\udfff", "\udc00x", "\ud83d");
const poisoned = fc
  .tuple(fc.constantFrom("", "hello", "x/"), poison, fc.constantFrom("", "end"))
  .map((parts) => parts.join(""));
const badValue = fc.oneof({ weight: 3, arbitrary: poisoned }, { weight: 2, arbitrary: anyJson });
const badFiles = fc.oneof(
  fc.dictionary(fc.oneof(tricky, poisoned, fc.constant("a.md")), fc.oneof(text, poisoned), { minKeys: 1, maxKeys: 3 }),
  anyJson,
);
/** A plausible body with, mostly, one field spoiled: each check is reached on its own. */
function body(route: TestRoute): fc.Arbitrary<string | undefined> {
  const fields = bodyFields(route);
  const missing = fields.filter((field) => !plausible[field]);
  if (missing.length > 0) throw new Error(`no plausible value for ${missing.join(", ")}: add it to \`plausible\``);
  const good = fc.record(Object.fromEntries(fields.map((field) => [field, plausible[field]!()])), {
    requiredKeys: requiredFields(route),
  });
  const spoiled = fields.length === 0 ? fc.constant(undefined) : fc.option(fc.constantFrom(...fields), { freq: 5 });
  const object = fc
    .tuple(good, spoiled, badValue, badFiles, fc.option(fc.tuple(text, anyJson), { freq: 8 }))
    .map(([value, field, bad, files, extra]) => {
      const result: Record<string, unknown> = { ...value };
      if (field) result[field] = field === "workspaceFiles" ? files : bad;
      if (extra) result[extra[0]] = extra[1];
      return result;
    });
  return fc.oneof(
    { weight: 10, arbitrary: object.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: text },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function query(route: string): fc.Arbitrary<string> {
  const kind = route.endsWith("/stream")
    ? "stream"
    : route.endsWith("/events")
      ? "events"
      : route.endsWith("/versions")
        ? "versions"
        : route.endsWith("v1/session")
          ? "session"
          : route.endsWith("/evals/runs")
            ? "runs"
            : undefined;
  if (!kind)
    return fc.oneof(
      fc.constant(""),
      text.map((value) => `x=${component(value)}`),
    );
  const fields = queryFields()[kind]!;
  const bad = fc.oneof(text.map(component), rawSegment, poisoned.map(component));
  const values = Object.fromEntries(
    Object.entries(fields).map(([name, good]) => [
      name,
      fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: bad }),
    ]),
  );
  return fc.record(values, { requiredKeys: [] }).map((picked) =>
    Object.entries(picked)
      .map(([name, value]) => `${name}=${value}`)
      .join("&"),
  );
}

const headers = () =>
  fc.record(
    {
      authorization: fc.oneof(
        { weight: 12, arbitrary: fc.constant(bearer) },
        { weight: 1, arbitrary: printable.map((token) => `Bearer ${token}`) },
        { weight: 1, arbitrary: printable.map((token) => `Bearer af_${token}`) },
        { weight: 1, arbitrary: fc.constantFrom("", "Basic abc", "Bearer") },
      ),
      "content-type": fc.constantFrom("application/json", "text/plain", "", "application/json; charset=latin1"),
      cookie: fc.oneof(
        fc.constant(""),
        printable.map((value) => `next-auth.session-token=${value}`),
      ),
      origin: fc.constantFrom("", "http://evil.example", "null"),
      "x-forwarded-proto": fc.constantFrom("", "https", "gopher", "%00"),
    },
    { requiredKeys: ["authorization"] },
  );

// Routes with a body are drawn three times as often: most fields that reach the database are there.
// Not health: its 503 reports the platform's parts (this test's worker has no health probe), and it
// takes no input.
const weightedRoutes = v1Routes
  .filter((route) => route.entry.name !== "getHealth")
  .map((route) => ({
    weight: bodyFields(route).length > 0 ? 3 : 1,
    arbitrary: fc.constant(route),
  }));
const requests = (): fc.Arbitrary<Sent> =>
  fc.oneof(...weightedRoutes).chain((route) => {
    const key = `${route.method} ${route.segments.join("/")}`;
    const isDelete = route.method === "DELETE";
    const segments = fc.tuple(
      ...route.segments.map((segment) =>
        segment.startsWith(":") ? pathParam(segment.slice(1), isDelete) : fc.constant(segment),
      ),
    );
    const hasBody = route.method !== "GET" && route.method !== "DELETE";
    return fc
      .record({
        path: fc
          .tuple(segments, query(key))
          .map(([parts, search]) => `/${parts.join("/")}${search ? `?${search}` : ""}`),
        body: hasBody ? body(route) : fc.constant(undefined),
        headers: headers(),
      })
      .map((picked) => ({ method: route.method, ...picked, route }) as Sent);
  });

describe("fuzzed input", () => {
  it(`never answers 5xx, over ${fuzzRuns} requests to every /v1 route`, async () => {
    const before = requestCount;
    const startedAt = Date.now();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requests(), async (request) => {
        const answer = await send(request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500)
          throw new Error(
            `${answer.status} for ${JSON.stringify({ ...request, route: undefined })}: ${answer.text.slice(0, 500)}`,
          );
        // A 4xx is always the wire format, so clients can tell why; past its auth, MCP answers
        // JSON-RPC errors (docs/api.md, "MCP").
        const isJsonRpcError =
          request.route?.entry.name === "mcp" && answer.json?.jsonrpc === "2.0" && answer.json.error;
        // A route that answers a browser (the OAuth callback) answers it a page, errors too.
        const isPage =
          request.route !== undefined &&
          "html" in request.route.entry.response &&
          answer.text.startsWith("<!doctype html>");
        if (answer.status >= 400 && answer.json?.ok !== false && !isJsonRpcError && !isPage)
          throw new Error(`${answer.status} without { ok: false }: ${answer.text.slice(0, 200)}`);
        // A JSON 200 is what the route table (and so the OpenAPI document) says it is.
        const answers = request.route?.entry.response;
        if (answer.status === 200 && answers && "json" in answers) {
          const parsed = answers.json.safeParse(answer.json);
          if (!parsed.success)
            throw new Error(
              `${request.method} ${request.path} answered off its schema: ${z.prettifyError(parsed.error)}`,
            );
        }
        // Keep following up on the live session with its latest token.
        const target = request.path.split("?")[0]!;
        const isLive = target === `/${slug}/v1/session/${live.sessionId}` || target === `/v1/session/${live.sessionId}`;
        if (answer.status === 200 && isLive && answer.json?.continuationToken)
          live.continuationToken = answer.json.continuationToken;
      }),
      { numRuns: fuzzRuns, endOnFailure: true, interruptAfterTimeLimit: 50_000, markInterruptAsFailure: false },
    );
    expect(faults).toEqual([]);
    // The server is still up and serving.
    expect((await get(`/${slug}/v1/session/${live.sessionId}`)).status).toBe(200);
    expect(requestCount - before).toBeLessThanOrEqual(2_000);
    console.log(
      `fuzz: ${requestCount - before} requests in ${Date.now() - startedAt} ms, by status: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 60_000);
});
