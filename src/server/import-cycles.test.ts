// No import circle in src/server: seams are types in their own file (turns/engine.ts), which
// implementation files import instead of each other. Type-only imports count too.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const srcDir = path.resolve(import.meta.dirname, "..");
const serverDir = path.join(srcDir, "server");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a relative or `@/` specifier names, as the bundler resolution of tsconfig finds it. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(srcDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((file) => /\.tsx?$/.test(file) && fs.existsSync(file) && fs.statSync(file).isFile());
}

/** Every import of a file: `import`, `import type`, `export … from`, `import()` and `import("…").T`. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return importedFiles.map((ref) => resolveImport(file, ref.fileName)).filter((f): f is string => f !== undefined);
}

/** The first cycle found by depth-first search, as a list of files ending where it started. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string): string[] | undefined => {
    if (onStack.has(file)) return [...stack.slice(stack.indexOf(file)), file];
    if (done.has(file)) return undefined;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
    return undefined;
  };
  for (const file of [...graph.keys()].sort()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("imports in src/server", () => {
  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findCycle(graph)).toEqual(["a", "b", "c", "a"]);
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toBeUndefined();
  });

  it("form no circle", () => {
    const files = sourceFiles(serverDir);
    const inServer = new Set(files);
    // Only edges between src/server files: a circle through another folder is not this test's.
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((to) => inServer.has(to))]));
    const cycle = findCycle(graph)?.map((file) => path.relative(srcDir, file));
    expect(cycle, `import circle: ${cycle?.join(" → ")}`).toBeUndefined();
  });
});
