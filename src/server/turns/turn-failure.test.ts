import { APICallError, LoadAPIKeyError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelResolutionError } from "@/agents/runtime/models/resolve-model";
import { ScriptedFailureError } from "@/agents/runtime/models/local-scripted";
import { SandboxError } from "@/agents/sandbox/sandbox-error";
import { classifyFailure, exhausted } from "./turn-failure";

const apiError = (statusCode: number | undefined, isRetryable = false) =>
  new APICallError({
    message: `status ${statusCode}`,
    url: "http://127.0.0.1/v1/responses",
    requestBodyValues: {},
    statusCode,
    isRetryable,
  });
const errno = (code: string, syscall = "open") =>
  Object.assign(new Error(`${code}: failed, ${syscall} '/ws/x'`), { code, syscall });
const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code, severity: "ERROR" });

describe("classifyFailure", () => {
  it.each([
    [
      "an unresolvable model",
      new ModelResolutionError("model openai:gpt-5 needs OPENAI_API_KEY"),
      "model_unavailable",
      false,
    ],
    ["a missing API key setting", new LoadAPIKeyError({ message: "no key" }), "provider_auth", false],
    ["a refused key", apiError(401), "provider_auth", false],
    ["a forbidden model", apiError(403), "provider_auth", false],
    ["a malformed request", apiError(400), "provider_rejected", false],
    ["rate limiting", apiError(429, true), "provider_unavailable", true],
    ["an overloaded provider", apiError(503, true), "provider_unavailable", true],
    ["a lost connection to the provider", apiError(undefined, true), "provider_unavailable", true],
    [
      "the SDK's retries used up on a 503",
      new RetryError({
        message: "failed after 2 attempts",
        reason: "maxRetriesExceeded",
        errors: [apiError(503, true)],
      }),
      "provider_unavailable",
      true,
    ],
    ["the offline model's [fail]", new ScriptedFailureError("upstream timeout"), "model_error", false],
    ["a workspace path that is a directory", errno("EISDIR"), "workspace_invalid", false],
    ["a file where a directory must be", errno("ENOTDIR", "mkdir"), "workspace_invalid", false],
    ["text jsonb refuses", pgError("22P02"), "invalid_data", false],
    ["Postgres restarting", pgError("57P01"), "storage_unavailable", true],
    ["Postgres refusing connections", errno("ECONNREFUSED", "connect"), "service_unavailable", true],
    ["a dropped pg connection", new Error("Connection terminated unexpectedly"), "storage_unavailable", true],
    [
      "Prisma's validation of a malformed request",
      Object.assign(new Error("Argument `id`: Invalid value"), { name: "PrismaClientValidationError" }),
      "invalid_data",
      false,
    ],
    [
      "Prisma unable to reach the database",
      Object.assign(new Error("Can't reach database server"), { code: "P1001" }),
      "storage_unavailable",
      true,
    ],
    ["a sandbox that cannot start", new SandboxError("failed_to_start", "no code to run"), "sandbox_failed", false],
    ["a sandbox that crashed", new SandboxError("crashed", "exited with signal SIGKILL"), "sandbox_failed", true],
    ["a cause that is classified", new Error("setup failed", { cause: errno("EISDIR") }), "workspace_invalid", false],
    ["anything else", new Error("something unexpected"), "internal", true],
  ])("%s → %s", (_name, error, code, isRetryable) => {
    expect(classifyFailure(error)).toMatchObject({ code, isRetryable });
  });

  it("keeps the error's message, and an exhausted bound names the attempts and the last failure", () => {
    const last = classifyFailure(apiError(503, true));
    expect(last.message).toBe("status 503");
    expect(exhausted(last, 8)).toEqual({
      code: "retries_exhausted",
      isRetryable: false,
      message: "gave up after 8 attempts (provider_unavailable): status 503",
    });
  });
});
