// Every failure a turn can meet, decided once: terminal (the turn ends now with `turn.failed` and
// a code) or retryable (the engine runs the turn again from its journal, a bounded number of times
// with backoff). The table in docs/turns.md ("Failures") is this file in prose; keep them together.
import { APICallError, AISDKError, LoadAPIKeyError, LoadSettingError, NoSuchModelError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { TerminalError } from "@restatedev/restate-sdk";
import { ModelResolutionError } from "@/agents/runtime/models/resolve-model";
import { ScriptedFailureError } from "@/agents/runtime/models/local-scripted";
import { SandboxError } from "@/agents/sandbox/sandbox-error";

/** The machine-readable `code` of `turn.failed` (docs/api.md lists them). */
export type TurnFailureCode =
  | "model_unavailable"
  | "provider_auth"
  | "provider_rejected"
  | "provider_unavailable"
  | "model_error"
  | "invalid_data"
  | "workspace_invalid"
  | "sandbox_failed"
  | "storage_unavailable"
  | "service_unavailable"
  | "engine_unavailable"
  | "retries_exhausted"
  | "result_rejected"
  | "connection_failed"
  | "step_limit"
  | "internal";

export type TurnFailure = { code: TurnFailureCode; isRetryable: boolean; message: string };

/** Node's errno codes of a workspace laid out wrong (a file where a directory must be, a path too
 * long …): the same input fails the same way on every run. */
const workspaceErrnos = new Set(["EISDIR", "ENOTDIR", "EEXIST", "ENAMETOOLONG", "ELOOP", "EINVAL"]);
/** Connection-level failures: the database, the engine or a provider is away for now. */
const connectionErrnos = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
/** Prisma's codes for a database it cannot reach or that went away. */
const prismaUnavailable = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

export function classifyFailure(error: unknown): TurnFailure {
  const message = messageOf(error);
  const terminal = (code: TurnFailureCode): TurnFailure => ({ code, isRetryable: false, message });
  const retryable = (code: TurnFailureCode): TurnFailure => ({ code, isRetryable: true, message });

  if (error instanceof ModelResolutionError) return terminal("model_unavailable");
  if (error instanceof ScriptedFailureError) return terminal("model_error");
  if (RetryError.isInstance(error) && error.lastError !== undefined)
    return { ...classifyFailure(error.lastError), message };
  if (LoadAPIKeyError.isInstance(error) || LoadSettingError.isInstance(error)) return terminal("provider_auth");
  if (NoSuchModelError.isInstance(error)) return terminal("model_unavailable");
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 401 || status === 403) return terminal("provider_auth");
    // 408, 409 and 429 are the provider's "not now"; other 4xx mean the request itself is wrong.
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429)
      return terminal("provider_rejected");
    return error.isRetryable || status === undefined || status >= 500 || status === 429 || status === 408
      ? retryable("provider_unavailable")
      : terminal("provider_rejected");
  }
  if (error instanceof SandboxError)
    return error.reason === "failed_to_start" ? terminal("sandbox_failed") : retryable("sandbox_failed");
  if (error instanceof TerminalError) return terminal("internal");

  const name = error instanceof Error ? error.name : "";
  const code = errorCode(error);
  if (name === "PrismaClientValidationError") return terminal("invalid_data");
  if (name === "PrismaClientInitializationError" || (code && prismaUnavailable.has(code)))
    return retryable("storage_unavailable");
  if (code && workspaceErrnos.has(code) && hasSyscall(error)) return terminal("workspace_invalid");
  if (code && connectionErrnos.has(code)) return retryable("service_unavailable");
  if (code && /^[0-9A-Z]{5}$/.test(code) && isPgError(error)) {
    // SQLSTATE classes: 22 data exception (a value Postgres cannot hold: the same on every run);
    // 08 connection, 53 resources, 57 operator intervention (a restart), 40 serialization.
    if (code.startsWith("22")) return terminal("invalid_data");
    if (/^(08|53|57|40)/.test(code)) return retryable("storage_unavailable");
  }
  if (
    /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
      message,
    )
  ) {
    return retryable("storage_unavailable");
  }
  if (AISDKError.isInstance(error)) return terminal("model_error");
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause !== undefined && cause !== error) return { ...classifyFailure(cause), message };
  // Unknown: a fault of ours or a passing one. Retried, within the bound.
  return retryable("internal");
}

/** The failure of a turn whose retryable failures used up their attempts. */
export function exhausted(last: TurnFailure, attempts: number): TurnFailure {
  return {
    code: "retries_exhausted",
    isRetryable: false,
    message: `gave up after ${attempts} attempts (${last.code}): ${last.message}`,
  };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const hasSyscall = (error: unknown) => typeof (error as { syscall?: unknown }).syscall === "string";

// pg's DatabaseError carries severity and a SQLSTATE code.
const isPgError = (error: unknown) =>
  typeof (error as { severity?: unknown }).severity === "string" || (error as Error).name === "DatabaseError";
