// No import circle in src/server: seams are types in their own file (turns/engine.ts), which
// implementation files import instead of each other. Type-only imports count too.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsIn, resolveImport, sourceFiles, srcDir } from "@/testing/source-imports";

const serverDir = path.join(srcDir, "server");

/** Every import of a file: `import`, `import type`, `export … from`, `import()` and `import("…").T`. */
function importsOf(file: string): string[] {
  return importsIn(file, fs.readFileSync(file, "utf8"))
    .map((ref) => resolveImport(file, ref.specifier))
    .filter((f): f is string => f !== undefined);
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
