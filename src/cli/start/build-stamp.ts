// Decides whether the web app needs a build: a hash over every input of `next build`, written
// beside the build once it succeeds. Same hash → the existing build is current.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const inputs = [
  "src",
  "public",
  "next.config.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "package-lock.json",
  "prisma/schema.prisma",
];

const cliDir = path.join("src", "cli") + path.sep;

function listFiles(root: string, relative: string): string[] {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => listFiles(root, path.join(relative, entry.name)));
}

export function sourceHash(root: string): string {
  const hash = crypto.createHash("sha256");
  for (const file of inputs.flatMap((input) => listFiles(root, input))) {
    // Tests beside the code do not change the build, nor does the CLI, which no module of the app
    // imports (build-stamp.test.ts): an edit to a command must not cost the next start a build.
    if (/\.test\.tsx?$/.test(file) || file.startsWith(cliDir)) continue;
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

const stampPath = (root: string) => path.join(root, ".next", "agentfold-build-stamp");

export function isBuildCurrent(root: string, hash: string): boolean {
  try {
    return fs.readFileSync(stampPath(root), "utf8").trim() === hash;
  } catch {
    return false;
  }
}

export function writeBuildStamp(root: string, hash: string): void {
  fs.writeFileSync(stampPath(root), hash + "\n");
}
