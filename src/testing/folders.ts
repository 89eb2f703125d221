// Agent folders as `{ relativePath: content }`, written to disk or read from it, for tests.
import fs from "node:fs";
import path from "node:path";

export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** A folder on disk as `{ relativePath: content }` (text files; node_modules left out). */
export function readFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !full.includes(`${path.sep}node_modules${path.sep}`))
      files[path.relative(dir, full).split(path.sep).join("/")] = fs.readFileSync(full, "utf8");
  }
  return files;
}
