import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { normalizeEntryPath } from "./normalize-entry-path";

describe("normalizeEntryPath", () => {
  it.each([
    ["agent.md", "agent.md"],
    ["my-agent/prompts/system.md", "my-agent/prompts/system.md"],
    ["./my-agent//agent.md", "my-agent/agent.md"],
    ["my-agent/tools/../agent.md", "my-agent/agent.md"],
    ["my-agent/", "my-agent"],
    ["./", ""],
    ["a/..", ""],
    ["notes:v2.md", "notes:v2.md"],
  ])("turns %j into %j", (name, expected) => {
    expect(normalizeEntryPath(name)).toBe(expected);
  });

  it.each([
    ["../evil.txt", "escapes the archive root"],
    ["my-agent/../../evil.txt", "escapes the archive root"],
    ["./../evil.txt", "escapes the archive root"],
    ["/etc/passwd", "has an absolute path"],
    ["//server/share/x", "has an absolute path"],
    ["C:/Windows/evil.txt", "starts with a drive letter"],
    ["c:evil.txt", "starts with a drive letter"],
    ["my-agent\\..\\..\\evil.txt", "contains a backslash"],
    ["agent.md\0.png", "contains a NUL byte"],
    [`${"a".repeat(256)}.md`, "has a name that is too long"],
    [Array.from({ length: 300 }, () => "abcd").join("/"), "has a path that is too long"],
  ])("rejects %j", (name, reason) => {
    let thrown: unknown;
    try {
      normalizeEntryPath(name);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe("invalid_upload");
    expect((thrown as AppError).message).toBe(`entry ${JSON.stringify(name)} ${reason}`);
  });
});
