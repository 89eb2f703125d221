// The one provider test that sends a real request: to a tiny OpenAI-style server on 127.0.0.1, the
// HTTP boundary being the only place a provider may be faked. No network beyond loopback.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { streamText } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resolveModel } from "./resolve-model";

const requests: { path?: string; body: Record<string, unknown> }[] = [];

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra = {}) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_764_000_000,
    model: "qwen2.5:7b",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  })}\n\n`;

const server = http.createServer((request, response) => {
  let raw = "";
  request.on("data", (data) => (raw += data));
  request.on("end", () => {
    requests.push({ path: request.url, body: JSON.parse(raw) });
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.write(chunk({ role: "assistant", content: "Hello " }));
    response.write(chunk({ content: "from the " }));
    response.write(chunk({ content: "local server." }));
    response.write(chunk({}, "stop", { usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } }));
    response.end("data: [DONE]\n\n");
  });
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("streams from an OpenAI-compatible server at the configured base URL", async () => {
  const { port } = server.address() as AddressInfo;
  const model = resolveModel("openai-compatible:qwen2.5:7b", { openaiCompatibleBaseUrl: `http://127.0.0.1:${port}/v1` });
  const result = streamText({ model, system: "Be brief.", prompt: "Say hello", maxRetries: 0 });
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") deltas.push(part.text);
    if (part.type === "error") throw part.error;
  }

  expect(requests).toHaveLength(1);
  expect(requests[0]!.path).toBe("/v1/chat/completions");
  expect(requests[0]!.body).toMatchObject({
    model: "qwen2.5:7b",
    stream: true,
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Say hello" },
    ],
  });
  expect(deltas.length).toBeGreaterThan(1);
  expect(deltas.join("")).toBe("Hello from the local server.");
  expect(await result.finishReason).toBe("stop");
  expect((await result.usage).outputTokens).toBe(5);
});
