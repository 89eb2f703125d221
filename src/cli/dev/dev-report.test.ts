import { describe, expect, it } from "vitest";
import { addressLines, loadLines, startedLine } from "./dev-report";

const broken = [{ level: "error" as const, file: "bot/tools/edition.ts", line: 1, message: "Unexpected end of file" }];

describe("what agentfold dev prints", () => {
  it("says a broken edit leaves the last good version serving, when there is one", () => {
    const lines = loadLines(
      { slug: "desk", isRoot: false },
      { status: "invalid", number: 3, diagnostics: broken, isServing: true },
      120,
      true,
    );
    expect(lines).toEqual([
      "error: bot/tools/edition.ts:1: Unexpected end of file",
      "version 3 has 1 error; the last good version keeps serving",
    ]);
  });

  it("says nothing is served yet when a folder has never loaded, and waits instead of being ready", () => {
    const [, said] = loadLines(
      { slug: "beta", isRoot: true },
      { status: "invalid", number: 1, diagnostics: broken, isServing: false },
      120,
      false,
    );
    expect(said).toBe(
      "beta: version 1 has 1 error and no version loaded before it: nothing is served yet; it serves once the folder loads (save a fix)",
    );
    expect(startedLine(9.84, "watching /w", ["beta"])).toBe("started in 9.8 s; watching /w; waiting for beta to load");
    expect(startedLine(9.84, "watching /w", [])).toBe("ready in 9.8 s; watching /w");
  });

  it("names the agent on each line of a root, and the unslugged API of a single agent only", () => {
    expect(
      loadLines(
        { slug: "alpha", isRoot: true },
        { status: "ready", number: 2, diagnostics: [], movedSessions: 1 },
        7,
        false,
      ),
    ).toEqual(["alpha: version 2 ready in 7 ms (1 session moved to it)"]);
    expect(addressLines("http://127.0.0.1:3000", { slug: "alpha", isRoot: true })[1]).toBe(
      "alpha: API: http://127.0.0.1:3000/alpha/v1; loopback callers need no token",
    );
    expect(addressLines("http://127.0.0.1:3000", { slug: "desk", isRoot: false })[1]).toBe(
      "API: http://127.0.0.1:3000/desk/v1 (and http://127.0.0.1:3000/v1); loopback callers need no token",
    );
  });
});
