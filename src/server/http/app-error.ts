// The one error type of the platform. Codes are a closed set; each maps to one HTTP status.
// Errors are turned into responses in exactly two places: the route helper and the tRPC error
// formatter.
import { refusedValueCode } from "./refused-value";

export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  stale_continuation_token: 409,
  task_session: 409,
  session_busy: 409,
  already_resolved: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_upload: 422,
  invalid_agent: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorBody = { ok: false; error: ErrorCode; message?: string; issues?: unknown };

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: { issues?: unknown },
  ) {
    super(message ?? code);
    this.name = "AppError";
    this.status = errorStatus[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ok: false, error: this.code };
    if (this.message !== this.code) body.message = this.message;
    if (this.details?.issues !== undefined) body.issues = this.details.issues;
    return body;
  }
}

/** Any thrown value as an AppError: a value the database refused is invalid_input
 * (./refused-value.ts); other unknown errors become internal_error without their stack. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const refused = refusedValueCode(error);
  if (refused) return new AppError("invalid_input", `a value in the request cannot be stored or compared (database code ${refused})`);
  return new AppError("internal_error", "Something went wrong on our side.");
}
