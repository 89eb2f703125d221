// JSON responses in the platform's wire format.
import { AppError } from "@/server/errors";
import { toAppError } from "./to-app-error";

// API answers are small, dynamic and mostly read by programs: never stored, and never compressed
// on the way out (`no-transform` tells Next's gzip to leave them be; deflating a few hundred bytes
// cost the web process more than anything else about a POST).
const apiCacheControl = "no-store, no-transform";

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const response = Response.json(body, { status, headers });
  if (!response.headers.has("cache-control")) response.headers.set("cache-control", apiCacheControl);
  return response;
}

export function errorResponse(error: unknown): Response {
  const appError = toAppError(error);
  // A refused value is logged too: validation should have caught it (docs/api.md#validation).
  if (!(error instanceof AppError))
    console.error(
      appError.status < 500 ? "A route's input reached the database unchecked:" : "Unhandled error in a route:",
      error,
    );
  return json(appError.toBody(), appError.status);
}
