import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/server/errors";
import { maxBodyBytes } from "./read-json";
import { defineRoute } from "./route";
import { processLogger } from "@/server/logging/logger";

const context = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });

const echo = defineRoute({
  auth: "public",
  params: z.object({ slug: z.string().regex(/^[a-z]+$/) }),
  body: z.object({ message: z.string().min(1) }),
  handler: async ({ params, body }) => ({ ok: true, slug: params.slug, message: body.message }),
});

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://test/hello/v1/echo", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("defineRoute", () => {
  it("passes parsed input to the handler and answers JSON", async () => {
    const response = await echo(post(JSON.stringify({ message: "hi" })), context({ slug: "hello" }));
    expect(response.status).toBe(200);
    // Neither stored nor compressed on the way out (e2e/api/sessions.spec.ts sees it uncompressed).
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await response.json()).toEqual({ ok: true, slug: "hello", message: "hi" });
  });

  it("answers 400 invalid_json for a malformed body", async () => {
    const response = await echo(post("{not json"), context({ slug: "hello" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      error: "invalid_json",
      message: "The request body is not valid JSON.",
    });
  });

  it("answers 413 for a body over 1 MiB, declared or streamed", async () => {
    const big = JSON.stringify({ message: "x".repeat(maxBodyBytes) });
    const declared = await echo(post(big, { "content-length": String(big.length) }), context({ slug: "hello" }));
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toBe("payload_too_large");

    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(300 * 1024).fill(32));
        controller.close();
      },
    });
    const streamed = await echo(post(chunks), context({ slug: "hello" }));
    expect(streamed.status).toBe(413);
  });

  it("answers 400 invalid_input naming the bad field", async () => {
    const response = await echo(post(JSON.stringify({ message: "" })), context({ slug: "hello" }));
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.error).toBe("invalid_input");
    expect(body.issues[0].path).toEqual(["message"]);
  });

  it("validates path parameters", async () => {
    const response = await echo(post(JSON.stringify({ message: "hi" })), context({ slug: "NOT-OK" }));
    expect(response.status).toBe(400);
  });

  it("maps AppError codes to their status and hides unknown errors", async () => {
    const conflict = defineRoute({
      auth: "public",
      handler: async () => {
        throw new AppError("stale_continuation_token", "The continuation token was already used.");
      },
    });
    const crash = defineRoute({
      auth: "public",
      handler: async () => {
        throw new Error("connection string postgres://secret@db leaked");
      },
    });
    const stale = await conflict(new Request("http://test/"), context());
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      ok: false,
      error: "stale_continuation_token",
      message: "The continuation token was already used.",
    });
    const logged = vi.spyOn(processLogger(), "error").mockImplementation(() => undefined);
    const hidden = await crash(new Request("http://test/"), context());
    expect(hidden.status).toBe(500);
    expect(JSON.stringify(await hidden.json())).not.toContain("secret");
    // The operator still sees what happened, in the server log.
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it("runs authentication before reading input", async () => {
    let didRunHandler = false;
    const guarded = defineRoute({
      auth: async () => {
        throw new AppError("unauthorized", "A bearer token is required.");
      },
      body: z.object({}),
      handler: async () => {
        didRunHandler = true;
        return { ok: true };
      },
    });
    const response = await guarded(post("{broken"), context());
    expect(response.status).toBe(401);
    expect(didRunHandler).toBe(false);
  });
});
