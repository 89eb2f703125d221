import { describe, expect, it } from "vitest";
import { fileFilter, globToRegExp } from "./glob-pattern";

const matches = (pattern: string, candidate: string) => globToRegExp(pattern).test(candidate);

describe("globToRegExp", () => {
  it("keeps * and ? within one path segment", () => {
    expect(matches("*.ts", "a.ts")).toBe(true);
    expect(matches("*.ts", "src/a.ts")).toBe(false);
    expect(matches("a?c", "abc")).toBe(true);
    expect(matches("a?c", "a/c")).toBe(false);
    expect(matches("a**b", "a/x/b")).toBe(false);
    expect(matches("a**b", "axxb")).toBe(true);
  });

  it("lets ** span any number of directories, including none", () => {
    expect(matches("**/*.ts", "a.ts")).toBe(true);
    expect(matches("**/*.ts", "x/y/a.ts")).toBe(true);
    expect(matches("src/**/test/*.ts", "src/test/a.ts")).toBe(true);
    expect(matches("src/**/test/*.ts", "src/a/b/test/a.ts")).toBe(true);
    expect(matches("src/**", "src/a/b.ts")).toBe(true);
    expect(matches("src/**", "lib/a.ts")).toBe(false);
  });

  it("supports braces and character classes, and escapes regex syntax", () => {
    expect(matches("*.{ts,tsx}", "a.tsx")).toBe(true);
    expect(matches("*.{ts,tsx}", "a.js")).toBe(false);
    expect(matches("file[0-9].txt", "file7.txt")).toBe(true);
    expect(matches("file[!0-9].txt", "file7.txt")).toBe(false);
    expect(matches("a.b", "axb")).toBe(false);
    expect(matches("(a)+", "(a)+")).toBe(true);
    expect(matches("{oops", "{oops")).toBe(true);
  });

  it("refuses a pattern that cannot be compiled, naming it", () => {
    expect(() => globToRegExp("[z-a]")).toThrow('invalid glob pattern "[z-a]"');
  });
});

describe("fileFilter", () => {
  it("matches a pattern without a slash against the file name at any depth", () => {
    expect(fileFilter("*.md")("docs/deep/readme.md")).toBe(true);
    expect(fileFilter("docs/*.md")("docs/deep/readme.md")).toBe(false);
    expect(fileFilter("docs/**/*.md")("docs/deep/readme.md")).toBe(true);
  });
});
