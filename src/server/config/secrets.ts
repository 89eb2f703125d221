// Secrets generated on first start and kept under the data directory (mode 0600), so a second
// start reuses them and existing data stays readable.
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
  // `wx` fails if another process created the file meanwhile; then theirs wins.
  try {
    fs.writeFileSync(file, value + "\n", { mode: 0o600, flag: "wx" });
    return value;
  } catch {
    return fs.readFileSync(file, "utf8").trim();
  }
}
