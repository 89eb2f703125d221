import { describe, expect, it } from "vitest";
import { createEntryTree } from "./create-entry-tree";

describe("createEntryTree", () => {
  it("rejects a path named twice, as a file or as a folder", () => {
    const files = createEntryTree();
    files.add("my-agent/agent.md", "file");
    expect(() => files.add("my-agent/agent.md", "file")).toThrow(
      'entry "my-agent/agent.md" appears more than once in the archive',
    );
    const folders = createEntryTree();
    folders.add("my-agent/tools", "directory");
    expect(() => folders.add("my-agent/tools", "directory")).toThrow("appears more than once");
  });

  it("accepts a folder listed after the files inside it", () => {
    const tree = createEntryTree();
    tree.add("my-agent/tools/forecast.ts", "file");
    expect(() => tree.add("my-agent/tools", "directory")).not.toThrow();
  });

  it("rejects a path that is both a file and a folder, in either order", () => {
    const fileFirst = createEntryTree();
    fileFirst.add("my-agent/tools", "file");
    expect(() => fileFirst.add("my-agent/tools/forecast.ts", "file")).toThrow(
      'entry "my-agent/tools" is both a file and a folder',
    );
    const folderFirst = createEntryTree();
    folderFirst.add("my-agent/tools/forecast.ts", "file");
    expect(() => folderFirst.add("my-agent/tools", "file")).toThrow("is both a file and a folder");
  });

  it("finds a single wrapping folder and nothing else", () => {
    const wrapped = createEntryTree();
    wrapped.add("my-agent/agent.md", "file");
    wrapped.add("my-agent/prompts/system.md", "file");
    expect(wrapped.wrapperFolder()).toBe("my-agent");

    const flat = createEntryTree();
    flat.add("agent.md", "file");
    flat.add("prompts/system.md", "file");
    expect(flat.wrapperFolder()).toBeUndefined();

    const singleFile = createEntryTree();
    singleFile.add("agent.md", "file");
    expect(singleFile.wrapperFolder()).toBeUndefined();

    // Only bot/ at the top: the agent folder itself, which must keep its bot/.
    const onlyBot = createEntryTree();
    onlyBot.add("bot/instructions.md", "file");
    onlyBot.add("bot/tools/lookup.ts", "file");
    expect(onlyBot.wrapperFolder()).toBeUndefined();
  });
});
