import { describe, expect, it } from "vitest";
import type { AgentVersionSummary } from "@/server/agents/schema";
import { AppError } from "@/server/errors";
import { parseNdjson } from "./ndjson";
import { type UploadStep, uploadProgressResponse, wantsUploadProgress } from "./upload-progress";

const version = { id: "v1", slug: "hello", number: 3, status: "ready", isActive: true } as AgentVersionSummary;

async function lines(response: Response): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const line of parseNdjson(response.body!)) out.push(line as Record<string, unknown>);
  return out;
}

describe("the upload route's NDJSON progress", () => {
  it("is what a client gets only when it asks for NDJSON", () => {
    const ask = (accept?: string) =>
      wantsUploadProgress(new Request("http://x/", { headers: accept ? { accept } : {} }));
    expect([ask("application/x-ndjson, application/json"), ask("application/json"), ask()]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("sends a line per step, then the result", async () => {
    const response = await uploadProgressResponse(async (onStep) => {
      for (const step of ["received", "validating", "bundling", "activating"] as UploadStep[]) onStep(step);
      return version;
    });
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const got = await lines(response);
    expect(got.map((l) => l.step ?? l.type)).toEqual(["received", "validating", "bundling", "activating", "result"]);
    expect(got.at(-1)).toMatchObject({ type: "result", ok: true, version: { number: 3 } });
  });

  it("keeps a refusal before the body is in as the route's error, with its status", async () => {
    const refused = uploadProgressResponse(async () => {
      throw new AppError("forbidden", "this caller may not deploy 'hello'");
    });
    await expect(refused).rejects.toMatchObject({ code: "forbidden" });
    // Received alone does not start the stream: an empty body's 422 is still a status.
    const empty = uploadProgressResponse(async (onStep) => {
      onStep("received");
      throw new AppError("invalid_upload", "the upload is empty");
    });
    await expect(empty).rejects.toMatchObject({ code: "invalid_upload" });
  });

  it("ends a started stream with an error line, never a status", async () => {
    const response = await uploadProgressResponse(async (onStep) => {
      onStep("received");
      onStep("validating");
      throw new AppError("invalid_upload", "a path escapes the archive: ../x");
    });
    expect(response.status).toBe(200);
    expect((await lines(response)).at(-1)).toMatchObject({
      type: "error",
      ok: false,
      error: "invalid_upload",
      message: "a path escapes the archive: ../x",
    });
  });
});
