// The one error type of the platform. Codes are a closed set; each maps to one HTTP status.
// Errors are turned into responses in exactly two places: the route helper and the tRPC error
// formatter. The wire form (`toBody`) is also how an error crosses the Restate boundary: the
// worker answers it, and the web rethrows it (`AppError.fromBody`) as the same AppError.
import { z } from "zod";

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

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

export const errorBodySchema = z.object({
  ok: z.literal(false),
  error: z.enum(errorCodes),
  message: z.string().optional(),
  issues: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An answer that is either `{ ok: true, … }` or an AppError's wire form. */
export type Outcome<T extends object> = ({ ok: true } & T) | ErrorBody;

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

  /** The AppError a body came from: `fromBody(e.toBody())` has e's code, message and issues. */
  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.error, body.message, body.issues === undefined ? undefined : { issues: body.issues });
  }
}
