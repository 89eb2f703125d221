// Turns an archive entry name into a relative POSIX path ("" for the root itself) or rejects it.
// Security boundary: every path that reaches the disk passed through here, so no entry can name
// a place outside the extraction root.
import { AppError } from "@/server/errors";

const maxSegmentBytes = 255;
const maxPathBytes = 1024;

export function normalizeEntryPath(name: string): string {
  const reject = (reason: string) => new AppError("invalid_upload", `entry ${JSON.stringify(name)} ${reason}`);
  // C APIs would cut the name at the NUL, so what gets checked is not what gets written.
  if (name.includes("\0")) throw reject("contains a NUL byte");
  // A separator on Windows: "a\..\..\x" must not slip past the ".." check below.
  if (name.includes("\\")) throw reject("contains a backslash");
  if (name.startsWith("/")) throw reject("has an absolute path");
  if (/^[a-zA-Z]:/.test(name)) throw reject("starts with a drive letter");

  const segments: string[] = [];
  for (const segment of name.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) throw reject("escapes the archive root");
      segments.pop();
      continue;
    }
    if (Buffer.byteLength(segment) > maxSegmentBytes) throw reject("has a name that is too long");
    segments.push(segment);
  }
  const path = segments.join("/");
  if (Buffer.byteLength(path) > maxPathBytes) throw reject("has a path that is too long");
  return path;
}
