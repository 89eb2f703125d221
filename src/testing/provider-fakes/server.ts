// A local HTTP stand-in for a model provider's streaming API, so tests exercise the real provider SDK
// end to end (request building, SSE parsing, zod validation, usage and error mapping) with nothing
// mocked above the socket. Loopback only, on a free port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicMessagesWire } from "./anthropic-messages";
import { openaiChatWire } from "./openai-chat";
import { openaiResponsesWire } from "./openai-responses";
import { xaiChatWire } from "./xai-chat";
import { isErrorReply, type FakeScript, type JsonBody, type ProviderWire } from "./reply";

export type FakeProvider = "openai" | "anthropic" | "openai-compatible" | "xai";

export type RecordedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: JsonBody };

export type ProviderFake = {
  /** Ends in `/v1`, as each provider's base URL setting expects. */
  baseUrl: string;
  /** Every request received, in order, including ones the fake refused. */
  requests: RecordedRequest[];
  close: () => Promise<void>;
};

const wires: Record<FakeProvider, ProviderWire> = {
  openai: openaiResponsesWire,
  anthropic: anthropicMessagesWire,
  "openai-compatible": openaiChatWire,
  xai: xaiChatWire,
};

export async function startProviderFake(options: {
  provider: FakeProvider;
  script: FakeScript;
}): Promise<ProviderFake> {
  const wire = wires[options.provider];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as JsonBody;
      const recorded = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body };
      requests.push(recorded);
      respond(wire, options.script, recorded, requests.length - 1, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // The SDK's fetch keeps connections alive; without this, close() would wait for them to idle out.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(
  wire: ProviderWire,
  script: FakeScript,
  request: RecordedRequest,
  index: number,
  response: http.ServerResponse,
) {
  const expected = `/v1${wire.path}`;
  if (request.method !== "POST" || request.path !== expected) {
    return sendJson(
      response,
      404,
      wire.errorBody({
        status: 404,
        message: `provider fake serves POST ${expected}, not ${request.method} ${request.path}`,
      }),
    );
  }
  let frames: string[];
  try {
    const reply = script(request.body, index);
    if (isErrorReply(reply)) return sendJson(response, reply.error.status, wire.errorBody(reply.error));
    frames = wire.streamFrames(reply, request.body, index);
  } catch (error) {
    // A script or wire mistake must fail the test loudly, not hang it.
    return sendJson(
      response,
      500,
      wire.errorBody({ status: 500, message: `provider fake: ${(error as Error).message}` }),
    );
  }
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  for (const frame of frames) response.write(frame);
  response.end();
}

function sendJson(response: http.ServerResponse, status: number, body: JsonBody) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
