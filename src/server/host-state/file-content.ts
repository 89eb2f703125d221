// How file content crosses the JSON boundary of a host call: as text ("utf8", the default) or as
// base64 of its bytes, which is the only way to carry bytes that are not UTF-8.
import { AppError } from "@/server/errors";
import { unstorableProblem } from "@/server/validation/schema";
import { count, quoted } from "./text";

export type FileEncoding = "utf8" | "base64";

// As in src/server/validation/schema.ts, which does not export it (and refuses NUL, which bytes may hold).
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encodingOf(encoding: unknown): FileEncoding {
  if (encoding === undefined || encoding === "utf8" || encoding === "base64") return encoding ?? "utf8";
  throw new AppError("invalid_input", `host.files: encoding must be "utf8" or "base64", not ${String(encoding)}`);
}

/** The bytes `content` stands for, refused past `limit` (checked before decoding a huge string). */
export function fileBytes(path: string, content: unknown, encoding: unknown, limit: number): Buffer {
  const as = encodingOf(encoding);
  if (typeof content !== "string") throw new AppError("invalid_input", "host.files: content must be a string");
  // A UTF-16 unit is at least one byte of UTF-8, and four base64 characters are three bytes.
  const atLeast = as === "utf8" ? content.length : Math.floor(content.length / 4) * 3 - 2;
  if (atLeast > limit) throw tooLarge(path, `at least ${count(atLeast)}`, limit);
  if (as === "utf8" && loneSurrogate.test(content)) {
    throw new AppError(
      "invalid_input",
      `host.files: content for ${quoted(path)} has a lone UTF-16 surrogate, which UTF-8 cannot carry; write bytes as base64`,
    );
  }
  const bytes = Buffer.from(content, as);
  // Canonical padded base64 only (Buffer.from skips other characters); a regex over MiBs overflows V8's stack.
  if (as === "base64" && bytes.toString("base64") !== content) {
    throw new AppError("invalid_input", `host.files: content for ${quoted(path)} is not padded standard base64`);
  }
  if (bytes.length > limit) throw tooLarge(path, count(bytes.length), limit);
  return bytes;
}

export function fileText(content: Buffer, encoding: unknown): string {
  return content.toString(encodingOf(encoding));
}

/** A list prefix is matched against stored (normalized) paths as it is, not normalized itself. */
export function prefixOption(prefix: unknown): string {
  if (typeof prefix !== "string") throw new AppError("invalid_input", "host.files: a list prefix must be a string");
  const problem = unstorableProblem(prefix);
  if (problem) throw new AppError("invalid_input", `host.files: list prefix ${quoted(prefix)} ${problem}`);
  return prefix;
}

function tooLarge(path: string, size: string, limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `host.files: content for ${quoted(path)} is ${size} bytes; the limit is ${limit / 1024 / 1024} MiB (${count(limit)} bytes) per file`,
  );
}
