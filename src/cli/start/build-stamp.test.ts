import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importsIn, resolveImport, sourceFiles, srcDir } from "@/testing/source-imports";
import { isBuildCurrent, sourceHash, writeBuildStamp } from "./build-stamp";

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-stamp-"));
  fs.mkdirSync(path.join(root, "src/app"), { recursive: true });
  fs.mkdirSync(path.join(root, ".next"));
  fs.writeFileSync(path.join(root, "src/app/page.tsx"), "export default 1");
  fs.writeFileSync(path.join(root, "package-lock.json"), "{}");
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("build stamp", () => {
  it("needs a build until one is stamped, then not until the source changes", () => {
    const hash = sourceHash(root);
    expect(isBuildCurrent(root, hash)).toBe(false);
    writeBuildStamp(root, hash);
    expect(isBuildCurrent(root, sourceHash(root))).toBe(true);

    fs.writeFileSync(path.join(root, "src/app/page.tsx"), "export default 2");
    expect(isBuildCurrent(root, sourceHash(root))).toBe(false);
  });

  it("notices new files and dependency changes but not tests", () => {
    const before = sourceHash(root);
    fs.writeFileSync(path.join(root, "src/app/page.test.ts"), "test");
    expect(sourceHash(root)).toBe(before);
    fs.writeFileSync(path.join(root, "src/app/other.ts"), "x");
    const withFile = sourceHash(root);
    expect(withFile).not.toBe(before);
    fs.writeFileSync(path.join(root, "package-lock.json"), '{"v":2}');
    expect(sourceHash(root)).not.toBe(withFile);
  });
});

describe("what the stamp leaves out", () => {
  it("does not hash the CLI, which no module the web app reaches imports", () => {
    const before = sourceHash(root);
    fs.mkdirSync(path.join(root, "src/cli/commands"), { recursive: true });
    fs.writeFileSync(path.join(root, "src/cli/commands/dev.ts"), "export {}");
    expect(sourceHash(root)).toBe(before);

    // The app's import graph, from every file under src/app: none of it is in src/cli.
    const cliDir = path.join(srcDir, "cli") + path.sep;
    const seen = new Set<string>();
    const pending = sourceFiles(path.join(srcDir, "app"));
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const ref of importsIn(file, fs.readFileSync(file, "utf8"))) {
        const target = resolveImport(file, ref.specifier);
        if (target && !seen.has(target)) pending.push(target);
      }
    }
    expect(seen.size).toBeGreaterThan(100);
    expect([...seen].filter((file) => file.startsWith(cliDir))).toEqual([]);
  });
});
