// JSON responses in the platform's wire format.
import crypto from "node:crypto";
import { AppError } from "@/server/errors";
import { errorFields, processLogger } from "@/server/logging/logger";
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

export function errorResponse(error: unknown, request?: Request): Response {
  const appError = toAppError(error);
  if (error instanceof AppError) return json(appError.toBody(), appError.status);
  // A refused value is logged too: validation should have caught it (docs/api.md#validation).
  // The answer names the line by its request id.
  const requestId = request?.headers.get("x-request-id") ?? `req_${crypto.randomBytes(6).toString("hex")}`;
  processLogger().error(
    {
      requestId,
      ...(request ? { method: request.method, path: new URL(request.url).pathname } : {}),
      ...errorFields(error),
    },
    appError.status < 500 ? "a route's input reached the database unchecked" : "unhandled error in a route",
  );
  return json(appError.toBody(), appError.status, { "x-request-id": requestId });
}
