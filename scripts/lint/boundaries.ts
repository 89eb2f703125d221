// The import boundaries Biome cannot check (it does not tell a type import from a value import):
// client components and agent code import only types from src/server. Run by `npm run lint`.
import fs from "node:fs";
import path from "node:path";
import { importsIn, resolveImport, sourceFiles, srcDir } from "@/testing/source-imports";

const serverDir = path.join(srcDir, "server");
/** Folders whose code may not bring server values along: the browser bundle and agent code. */
export const guardedDirs = ["components", "agents"].map((dir) => path.join(srcDir, dir));

export type Violation = { file: string; line: number; specifier: string };

/** Value imports of src/server from one file (given by path, read from `text`). */
export function serverValueImports(file: string, text: string): Violation[] {
  return importsIn(file, text)
    .filter((ref) => !ref.isTypeOnly)
    .filter((ref) => resolveImport(file, ref.specifier)?.startsWith(serverDir + path.sep))
    .map((ref) => ({ file, line: ref.line, specifier: ref.specifier }));
}

if (process.argv[1] === import.meta.filename) {
  const violations = guardedDirs
    .flatMap((dir) => sourceFiles(dir))
    .flatMap((file) => serverValueImports(file, fs.readFileSync(file, "utf8")));
  for (const { file, line, specifier } of violations) {
    console.error(
      `${path.relative(process.cwd(), file)}:${line}: value import of ${specifier} (import only types from src/server)`,
    );
  }
  if (violations.length > 0) process.exit(1);
  console.log(
    `boundaries: ${guardedDirs.map((dir) => path.relative(process.cwd(), dir)).join(", ")} import only types from src/server`,
  );
}
