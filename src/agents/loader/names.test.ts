import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nameProblem, reservedSlugs, slugProblem } from "./names";

/** Top-level URL segments the app serves: static folders and files, through route groups. */
function topLevelSegments(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory() && /^\(.+\)$/.test(entry.name)) return topLevelSegments(path.join(dir, entry.name));
    if (entry.isDirectory() && !entry.name.startsWith("[") && !entry.name.startsWith("_")) return [entry.name];
    return [];
  });
}

describe("slug rules", () => {
  it("accepts the spec's slug shape", () => {
    for (const slug of ["support-desk", "a", "Bot_2", "9lives"]) expect(slugProblem(slug)).toBeUndefined();
  });

  it("rejects bad shapes and names why", () => {
    expect(slugProblem("-lead")).toMatch(/must start with a letter or digit/);
    expect(slugProblem("has space")).toMatch(/only letters, digits/);
    expect(slugProblem("x".repeat(65))).toMatch(/longer than 64/);
  });

  it("reserves the spec's segments, case-insensitively", () => {
    for (const slug of ["v1", "playground", "docs", "V1", "api"]) expect(slugProblem(slug)).toMatch(/reserved/);
  });

  it("reserves every top-level route the app serves", () => {
    const appDir = path.resolve(import.meta.dirname, "../../app");
    const segments = topLevelSegments(appDir);
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) expect(reservedSlugs.has(segment), `/${segment} is not reserved`).toBe(true);
    const publicDir = path.resolve(import.meta.dirname, "../../../public");
    for (const file of fs.existsSync(publicDir) ? fs.readdirSync(publicDir) : []) {
      expect(reservedSlugs.has(file), `public/${file} is not reserved`).toBe(true);
    }
  });
});

describe("capability names", () => {
  it("reserve '__' for extensions", () => {
    expect(nameProblem("tool", "lookup_order")).toBeUndefined();
    expect(nameProblem("tool", "ci__lint")).toMatch(/must not contain '__'/);
    expect(nameProblem("tool", "bad name")).toMatch(/only letters, digits/);
  });
});
