// Reads a request body as JSON with a hard size limit, counting bytes as they arrive so an
// oversized or endless body is cut off without being buffered whole.
import { AppError } from "@/server/errors";

export const maxBodyBytes = 1024 * 1024;

/** The whole body as bytes, refused past `limit` without buffering more than that. */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readJsonBody(request: Request, limit = maxBodyBytes): Promise<unknown> {
  const text = (await readBodyBytes(request, limit)).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${limit / 1024 / 1024} MiB.`);
}
