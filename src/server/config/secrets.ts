// Secrets generated on first start and kept under the data directory (mode 0600), so a second
// start reuses them and existing data stays readable.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function readOrCreateSecret(file: string, generate: () => string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const value = generate();
  // Written whole to a file of our own, then linked into place: processes starting together
  // (a worker and a web) never read a half-written file, and a link fails if another process's
  // file is there already; then theirs wins.
  const own = `${file}.${process.pid}.${crypto.randomUUID()}`;
  fs.writeFileSync(own, value + "\n", { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(own, file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return fs.readFileSync(file, "utf8").trim();
  } finally {
    fs.rmSync(own, { force: true });
  }
}
