// Writes a folder given as `{ relativePath: content }`, for tests that need agent folders on disk.
import fs from "node:fs";
import path from "node:path";

export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}
