// HTTP to an Agentfold instance with a bearer token: JSON answers checked against a schema, the
// platform's error bodies turned back into AppErrors (their codes keep their exit statuses), and
// network failures said plainly.
import type { z } from "zod";
import { AppError, errorBodySchema } from "@/server/errors";
import type { Instance } from "./instance";

export type InstanceClient = ReturnType<typeof instanceClient>;

/** An instance without a token is a loopback `agentfold dev` (src/cli/remote/agent-target.ts). */
export function instanceClient(instance: Omit<Instance, "token"> & { token?: string }, prefix = "") {
  const base = `${instance.url}${prefix}`;
  const headers: Record<string, string> = {
    accept: "application/json",
    ...(instance.token ? { authorization: `Bearer ${instance.token}` } : {}),
  };

  async function send(
    method: string,
    path: string,
    init: { body?: BodyInit; type?: string; accept?: string; signal?: AbortSignal } = {},
  ) {
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers: {
          ...headers,
          ...(init.type ? { "content-type": init.type } : {}),
          ...(init.accept ? { accept: init.accept } : {}),
        },
        body: init.body,
        signal: init.signal,
        // A streamed body (an upload counted as it goes) must say so to Node's fetch.
        ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new AppError("unavailable", `could not reach ${instance.url}: ${networkProblem(error)}`);
    }
  }

  async function request<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const response = await send(method, path, {
      ...(body === undefined ? {} : { body: JSON.stringify(body), type: "application/json" }),
    });
    return parseAnswer(response, schema, `${method} ${base}${path}`);
  }

  return { url: instance.url, base, send, request };
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND …) is its cause. */
function networkProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export async function parseAnswer<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("internal_error", `${what} answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const failure = errorBodySchema.safeParse(json);
    if (failure.success) throw AppError.fromBody(failure.data);
    throw new AppError("internal_error", `${what} answered ${response.status}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AppError("internal_error", `${what}: unexpected answer: ${parsed.error.message}`);
  return parsed.data;
}
