import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callChannelRoute, channelPath, curlCommand } from "./channel-call";
import type { ChannelRoute } from "./channel-routes";

const route = (method: string, path: string): ChannelRoute => ({
  key: `webhook ${method} ${path}`,
  channel: "webhook",
  method,
  path,
  params: path.includes(":id") ? ["id"] : [],
});

afterEach(() => vi.unstubAllGlobals());

describe("channelPath", () => {
  it("fills path parameters and adds the query, encoded", () => {
    const path = channelPath("desk", {
      route: route("GET", "/tickets/:id/ask"),
      params: { id: "T 1/2" },
      query: { q: "a&b", n: 2, empty: "" },
    });
    expect(path).toBe("/desk/v1/channels/webhook/tickets/T%201%2F2/ask?q=a%26b&n=2");
  });
});

describe("callChannelRoute", () => {
  it("sends JSON with same-origin cookies and the token field, and keeps the answer's status and headers", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ ok: true }, { status: 202, headers: { "x-request-id": "r1", server: "hidden" } }),
    );
    vi.stubGlobal("fetch", fetch);
    const answer = await callChannelRoute("desk", "af_x", { route: route("POST", "/tickets"), body: { a: 1 } });
    expect(answer).toMatchObject({ status: 202, json: { ok: true } });
    expect(answer.headers).toEqual([
      ["content-type", "application/json"],
      ["x-request-id", "r1"],
    ]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/desk/v1/channels/webhook/tickets");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin", body: '{"a":1}' });
    expect(init.headers).toMatchObject({ authorization: "Bearer af_x", "content-type": "application/json" });
  });
});

describe("curlCommand", () => {
  const body = { text: 'it\'s "quoted" $HOME `x`' };
  const curl = curlCommand("http://127.0.0.1:3000", "desk", { route: route("POST", "/tickets"), body });

  it("names the token only as $AGENTFOLD_TOKEN", () => {
    expect(curl).toContain('-H "Authorization: Bearer $AGENTFOLD_TOKEN"');
    expect(curl).toContain("'http://127.0.0.1:3000/desk/v1/channels/webhook/tickets'");
  });

  it("quotes the body so a shell passes it through unchanged, and expands only the token", async () => {
    // echo in place of curl: what a shell would hand to curl as its arguments.
    const script = `curl() { printf '%s\\n' "$@"; }\n${curl}`;
    const { stdout } = await promisify(execFile)("sh", ["-c", script], {
      env: { ...process.env, AGENTFOLD_TOKEN: "af_t" },
    });
    const args = stdout.trimEnd().split("\n");
    expect(args).toContain("Authorization: Bearer af_t");
    expect(args.at(-1)).toBe(JSON.stringify(body));
  });

  it("sends no body for a GET", () => {
    const get = curlCommand("http://h", "desk", { route: route("GET", "/status"), query: { q: "1" } });
    expect(get).not.toContain("--data-raw");
    expect(get).toContain("'http://h/desk/v1/channels/webhook/status?q=1'");
  });
});
