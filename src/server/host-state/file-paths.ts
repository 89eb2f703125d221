// host.files paths: relative POSIX paths, stored normalized, so `notes/a.md`, `./notes/a.md` and
// `notes//a.md` name one file. A `..` segment is refused rather than resolved: no path may look
// as if it climbed out of its scope.
import { AppError } from "@/server/errors";
import { unstorableProblem } from "@/server/validation/schema";
import { byteLength, count, quoted } from "./text";

export const maxPathBytes = 1024;

/** The normalized form of `path`, or an invalid_input AppError saying what is wrong with it. */
export function normalizeFilePath(path: unknown): string {
  if (typeof path !== "string") throw new AppError("invalid_input", "host.files: a path must be a string");
  const normalized = normalizedOrProblem(path);
  if (typeof normalized === "string") return normalized;
  throw new AppError("invalid_input", `host.files: path ${quoted(path)} ${normalized.problem}`);
}

function normalizedOrProblem(path: string): string | { problem: string } {
  const unstorable = unstorableProblem(path);
  if (unstorable) return { problem: unstorable };
  if (path.includes("\\")) return { problem: "must use '/' as its separator, not '\\'" };
  if (path.startsWith("/")) return { problem: "must be relative (no leading '/')" };
  if (path.endsWith("/")) return { problem: "must name a file, not end with '/'" };
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { problem: "must not have a '..' segment" };
  if (segments.length === 0) return { problem: "names no file" };
  const normalized = segments.join("/");
  const size = byteLength(normalized);
  if (size > maxPathBytes) return { problem: `is ${count(size)} bytes of UTF-8; the limit is ${count(maxPathBytes)}` };
  return normalized;
}
