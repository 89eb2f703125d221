// Streams survive the web process: a client resumes by index after the supervisor restarts a
// killed web process, and a second web process serves the same session live.
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { isHttpOk, waitFor } from "../../src/cli/start/wait";
import { sessionEventSchema, type SessionEvent } from "../../src/agents/sdk/events";
import { parseNdjson } from "../../src/server/http/ndjson";
import { startExtraWeb } from "../support/extra-web";
import { api, baseUrl, parseDump, readStream, tokens } from "./client";

test.describe.configure({ mode: "serial" });

function webPid(): number {
  const log = fs.readFileSync(process.env.AGENTFOLD_E2E_SUPERVISOR_LOG!, "utf8");
  const pids = [...log.matchAll(/web\s+http\S+\s+\(pid (\d+)\)|web restarted \(pid (\d+)\)/g)].map((m) =>
    Number(m[1] ?? m[2]),
  );
  return pids.at(-1)!;
}

test("a stream cut by killing the web process resumes by index with every event exactly once", async () => {
  test.setTimeout(90_000);
  const started = await api("POST", "/hello/v1/session", {
    token: tokens().owner,
    body: { message: "Take a moment [delay 3s]" },
  });
  const sessionId = started.json.sessionId;
  const response = await fetch(`${baseUrl()}/hello/v1/session/${sessionId}/stream?heartbeat=0`, {
    headers: { authorization: `Bearer ${tokens().owner}` },
  });
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
  await waitFor("the supervisor to restart the web process", () => isHttpOk(`${baseUrl()}/v1/health`), {
    timeoutMs: 60_000,
  });
  const rest = await readStream(
    `/hello/v1/session/${sessionId}/stream?startIndex=${before.at(-1)!.index + 1}`,
    tokens().owner,
    (e) => e.type === "session.waiting",
  );
  const resumed = [...before, ...rest.events];
  expect(resumed.map((e) => e.index)).toEqual(resumed.map((_, i) => i));
  expect(resumed.map((e) => e.type)).toContain("turn.completed");
  expect(resumed).toEqual(
    parseDump((await api("GET", `/hello/v1/session/${sessionId}/events`, { token: tokens().owner })).text),
  );
});

test("two web processes stream the same session live", async () => {
  test.setTimeout(90_000);
  const second = await startExtraWeb();
  try {
    const secondUrl = second.url;
    const started = await api("POST", "/hello/v1/session", {
      token: tokens().owner,
      body: { message: "Streaming to two readers [delay 1s]" },
    });
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
    second.stop();
  }
});
