// The browser's way to an agent's public /<slug>/v1 API, exactly as a curl user calls it: the
// playground, and the dashboard's approvals inbox and schedules panel. Same-origin cookies ride
// along (a dashboard sign-in), and the playground's token field goes as a bearer token when set.
import { apiErrorMessage } from "./api-errors";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type ApiClient = {
  json<T>(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    options?: { body?: unknown; signal?: AbortSignal },
  ): Promise<T>;
  /** Opens an NDJSON response; the caller reads the body. Errors before the first byte throw. */
  stream(path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
};

export function createApiClient(slug: string, token: string): ApiClient {
  const base = `/${encodeURIComponent(slug)}/v1`;
  const headers = (extra: Record<string, string>) => (token ? { ...extra, authorization: `Bearer ${token}` } : extra);
  async function send(method: string, path: string, init: { body?: unknown; signal?: AbortSignal; accept: string }) {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        credentials: "same-origin",
        headers: headers(
          init.body === undefined
            ? { accept: init.accept }
            : { accept: init.accept, "content-type": "application/json" },
        ),
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
        cache: "no-store",
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiError(
        0,
        "network",
        "Could not reach the server. Check your connection; the playground retries streams on its own.",
      );
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  }
  return {
    async json<T>(method: string, path: string, options: { body?: unknown; signal?: AbortSignal } = {}) {
      const response = await send(method, path, { ...options, accept: "application/json" });
      return (await response.json()) as T;
    },
    async stream(path, signal) {
      const response = await send("GET", path, { signal, accept: "application/x-ndjson" });
      if (!response.body)
        throw new ApiError(0, "network", "The server sent no stream body. Reload the page to try again.");
      return response.body;
    },
  };
}

async function toApiError(response: Response): Promise<ApiError> {
  let code = "internal_error";
  let message: string | undefined;
  try {
    const body = (await response.json()) as { error?: unknown; message?: unknown };
    if (typeof body.error === "string") code = body.error;
    if (typeof body.message === "string") message = body.message;
  } catch {
    // Not the wire format (a proxy's HTML page, say): the status alone must do.
  }
  return new ApiError(response.status, code, apiErrorMessage(response.status, code, message));
}
