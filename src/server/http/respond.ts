// JSON responses in the platform's wire format.
import { AppError, toAppError } from "./app-error";

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  if (!(error instanceof AppError)) console.error("Unhandled error in a route:", error);
  return json(appError.toBody(), appError.status);
}
