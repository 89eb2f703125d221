import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { maxPathBytes, normalizeFilePath } from "./file-paths";

function problemOf(path: unknown): string {
  try {
    normalizeFilePath(path);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_input");
    return (error as AppError).message;
  }
  throw new Error(`${JSON.stringify(path)} was accepted`);
}

// A segment that names something: no separator, not "." or "..", no NUL.
const segment = fc
  .string({ minLength: 1, maxLength: 12 })
  .filter((s) => !/[/\\\0]/.test(s) && s !== "." && s !== ".." && !/[\uD800-\uDFFF]/.test(s));
const separator = fc.constantFrom("/", "//", "/./", "///./");

describe("normalizeFilePath", () => {
  it("drops empty and '.' segments", () => {
    expect(normalizeFilePath("notes/a.md")).toBe("notes/a.md");
    expect(normalizeFilePath("./notes//./a.md")).toBe("notes/a.md");
    expect(normalizeFilePath("a b/ü.txt")).toBe("a b/ü.txt");
  });

  it("refuses what would leave or confuse the scope, saying why", () => {
    expect(problemOf("/etc/passwd")).toMatch(/must be relative/);
    expect(problemOf("../x")).toMatch(/'\.\.' segment/);
    expect(problemOf("a/../../x")).toMatch(/'\.\.' segment/);
    expect(problemOf("a/..")).toMatch(/'\.\.' segment/);
    expect(problemOf("a\\b")).toMatch(/separator/);
    expect(problemOf("a\0b")).toMatch(/NUL/);
    expect(problemOf("notes/")).toMatch(/must name a file/);
    expect(problemOf("")).toMatch(/names no file/);
    expect(problemOf("./.")).toMatch(/names no file/);
    expect(problemOf(42)).toMatch(/must be a string/);
  });

  it("takes paths up to 1,024 bytes of UTF-8, after normalizing", () => {
    expect(normalizeFilePath("x".repeat(maxPathBytes))).toHaveLength(maxPathBytes);
    expect(normalizeFilePath(`./${"x".repeat(maxPathBytes)}`)).toHaveLength(maxPathBytes);
    expect(problemOf("é".repeat(513))).toMatch(/1,026 bytes of UTF-8; the limit is 1,024/);
  });

  it("maps segments joined by any separators to the segments joined by '/'", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), separator, fc.boolean(), (parts, sep, dot) => {
        const path = (dot ? "./" : "") + parts.join(sep);
        expect(normalizeFilePath(path)).toBe(parts.join("/"));
      }),
    );
  });

  it("is idempotent, and what it returns has no '', '.' or '..' segment", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: fc.constantFrom("a", "/", ".", "\\", "é", "\0") }), (path) => {
        let normalized: string;
        try {
          normalized = normalizeFilePath(path);
        } catch {
          return;
        }
        expect(normalizeFilePath(normalized)).toBe(normalized);
        expect(normalized.split("/").every((s) => s !== "" && s !== "." && s !== "..")).toBe(true);
      }),
    );
  });

  it("refuses every path with a '..' segment", () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.array(segment, { maxLength: 3 }), (before, after) => {
        expect(problemOf([...before, "..", ...after].join("/"))).toMatch(/'\.\.' segment/);
      }),
    );
  });
});
