// Streams survive the web process: a client resumes by index after the supervisor restarts a
// killed web process, and a second web process serves the same session live.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { projectRoot } from "../../src/cli/start/project";
import { getFreePort } from "../../src/cli/start/ports";
import { embeddedDatabaseUrl } from "../../src/cli/start/postgres";
import { isHttpOk, waitFor } from "../../src/cli/start/wait";
import { sessionEventSchema, type SessionEvent } from "../../src/agents/sdk/events";
import { parseNdjson } from "../../src/server/http/ndjson";
import { api, baseUrl, parseDump, readStream, tokens } from "./client";

test.describe.configure({ mode: "serial" });

function webPid(): number {
  const log = fs.readFileSync(process.env.AGENTFOLD_E2E_SUPERVISOR_LOG!, "utf8");
  const pids = [...log.matchAll(/web\s+http\S+\s+\(pid (\d+)\)|web restarted \(pid (\d+)\)/g)].map((m) => Number(m[1] ?? m[2]));
  return pids.at(-1)!;
}

test("a stream cut by killing the web process resumes by index with every event exactly once", async () => {
  test.setTimeout(90_000);
  const started = await api("POST", "/hello/v1/session", { token: tokens().owner, body: { message: "Take a moment [delay 3s]" } });
  const sessionId = started.json.sessionId;
  const response = await fetch(`${baseUrl()}/hello/v1/session/${sessionId}/stream?heartbeat=0`, { headers: { authorization: `Bearer ${tokens().owner}` } });
  const before: SessionEvent[] = [];
  let wasCut = false;
  try {
    for await (const line of parseNdjson(response.body!)) {
      before.push(sessionEventSchema.parse(line));
      // Kill the web process while this connection is open and the turn is still running.
      if (before.length === 2) process.kill(webPid(), "SIGKILL");
    }
  } catch {
    wasCut = true;
  }
  expect(wasCut || before.length === 2).toBe(true);
  await waitFor("the supervisor to restart the web process", () => isHttpOk(`${baseUrl()}/v1/health`), { timeoutMs: 60_000 });
  const rest = await readStream(`/hello/v1/session/${sessionId}/stream?startIndex=${before.at(-1)!.index + 1}`, tokens().owner, (e) => e.type === "session.waiting");
  const resumed = [...before, ...rest.events];
  expect(resumed.map((e) => e.index)).toEqual(resumed.map((_, i) => i));
  expect(resumed.map((e) => e.type)).toContain("turn.completed");
  expect(resumed).toEqual(parseDump((await api("GET", `/hello/v1/session/${sessionId}/events`, { token: tokens().owner })).text));
});

test("two web processes stream the same session live", async () => {
  test.setTimeout(90_000);
  const dataDir = process.env.AGENTFOLD_E2E_DATA_DIR!;
  const ports = JSON.parse(process.env.AGENTFOLD_E2E_PORTS!) as Record<string, string>;
  const port = await getFreePort();
  const second = spawn(process.execPath, [path.join(projectRoot, "node_modules/next/dist/bin/next"), "start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      AGENTFOLD_DATA_DIR: dataDir,
      DATABASE_URL: embeddedDatabaseUrl(dataDir, Number(ports.POSTGRES_PORT)),
      RESTATE_INGRESS_URL: `http://127.0.0.1:${ports.RESTATE_INGRESS_PORT}`,
      RESTATE_ADMIN_URL: `http://127.0.0.1:${ports.RESTATE_ADMIN_PORT}`,
      WORKER_URL: `http://127.0.0.1:${ports.WORKER_PORT}`,
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    const secondUrl = `http://127.0.0.1:${port}`;
    await waitFor("the second web process", () => isHttpOk(`${secondUrl}/v1/health`), { timeoutMs: 60_000 });
    const started = await api("POST", "/hello/v1/session", { token: tokens().owner, body: { message: "Streaming to two readers [delay 1s]" } });
    const path_ = `/hello/v1/session/${started.json.sessionId}/stream`;
    const done = (event: SessionEvent) => event.type === "session.waiting";
    const viaSecond = (async () => {
      const response = await fetch(`${secondUrl}${path_}`, { headers: { authorization: `Bearer ${tokens().owner}` } });
      const events: SessionEvent[] = [];
      for await (const line of parseNdjson(response.body!)) {
        events.push(line as SessionEvent);
        if (done(line as SessionEvent)) break;
      }
      return events;
    })();
    const viaFirst = await readStream(path_, tokens().owner, done);
    expect(await viaSecond).toEqual(viaFirst.events);
    expect(viaFirst.events.map((e) => e.type)).toContain("turn.completed");
  } finally {
    process.kill(-second.pid!, "SIGTERM");
  }
});
