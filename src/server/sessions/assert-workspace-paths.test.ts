import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { assertWorkspacePaths, workspacePathProblem } from "./assert-workspace-paths";
import { startSessionBodySchema } from "./schema";

const refused = [
  ".",
  "..",
  "x/",
  "/etc/passwd",
  "a//b",
  "a/./b",
  "a/../b",
  "../up",
  "",
  "a\0b",
  "\\abs",
  "dir\\",
  "a\ud800",
];
const accepted = ["notes.md", "src/a.ts", ".hidden", "..dots", "a..b/c", "deep/er/file.txt"];

describe("workspacePathProblem", () => {
  it("refuses paths that cannot name a file inside the workspace", () => {
    for (const path of refused) expect(workspacePathProblem(path), JSON.stringify(path)).toBeDefined();
    for (const path of accepted) expect(workspacePathProblem(path), path).toBeUndefined();
  });

  it("throws invalid_input naming the path", () => {
    expect(() => assertWorkspacePaths({ "ok.md": "", "x/": "a" })).toThrow(AppError);
    expect(() => assertWorkspacePaths({ "x/": "a" })).toThrow(/'x\/'/);
    expect(() => assertWorkspacePaths({ "ok.md": "a" })).not.toThrow();
  });
});

describe("the start body's workspaceFiles", () => {
  it("puts an issue at each bad key, with the key in its message", () => {
    const result = startSessionBodySchema.safeParse({
      message: "hi",
      workspaceFiles: { ".": "a", "fine.md": "b", "x/": "c" },
    });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map(({ path, message }) => ({ path, message }));
    expect(issues).toEqual([
      { path: ["workspaceFiles", "."], message: expect.stringContaining("workspace path '.'") },
      { path: ["workspaceFiles", "x/"], message: expect.stringContaining("workspace path 'x/'") },
    ]);
  });

  it("refuses contents Postgres cannot store", () => {
    expect(startSessionBodySchema.safeParse({ message: "hi", workspaceFiles: { "a.md": "nul\0" } }).success).toBe(
      false,
    );
  });
});
