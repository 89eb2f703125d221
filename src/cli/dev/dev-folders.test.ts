import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFiles } from "@/testing/folders";
import { changedAgents, devFoldersOf } from "./dev-folders";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-dev-folders-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const root = writeFiles(path.join(scratch, "root"), {
  "alpha/bot/instructions.md": "a",
  "Beta Two/agent/instructions.md": "b",
  "lib/shared.ts": "export const x = 1;",
  "package.json": "{}",
  "node_modules/dep/bot/instructions.md": "not an agent of the root",
  ".cache/bot/instructions.md": "nor this",
});
const at = (...parts: string[]) => path.join(root, ...parts);

describe("devFoldersOf", () => {
  it("serves an agent folder as the one agent, with --slug if given", () => {
    expect(devFoldersOf(at("alpha"))).toEqual({ isRoot: false, agents: [{ slug: "alpha", dir: at("alpha") }] });
    expect(devFoldersOf(at("alpha"), "desk").agents).toEqual([{ slug: "desk", dir: at("alpha") }]);
  });

  it("serves each agent folder of a root, slugged by its name, skipping dependencies and dot-folders", () => {
    expect(devFoldersOf(root)).toEqual({
      isRoot: true,
      agents: [
        { slug: "alpha", dir: at("alpha") },
        { slug: "beta-two", dir: at("Beta Two") },
      ],
    });
    expect(() => devFoldersOf(root, "desk")).toThrow("--slug is for one agent folder");
  });

  it("serves a folder with no agent in it as one agent, whose load says what is missing", () => {
    expect(devFoldersOf(at("lib")).agents).toEqual([{ slug: "lib", dir: at("lib") }]);
  });

  it("refuses two folders that would be the same agent", () => {
    const clash = writeFiles(path.join(scratch, "clash"), {
      "My Agent/bot/instructions.md": "a",
      "my-agent/bot/instructions.md": "b",
    });
    expect(() => devFoldersOf(clash)).toThrow("would both be the agent 'my-agent'");
  });
});

describe("changedAgents", () => {
  const folders = devFoldersOf(root);

  it("reloads only the agent whose folder changed", () => {
    const changes = changedAgents(root, folders, [at("alpha", "bot", "instructions.md")]);
    expect([...changes]).toEqual([[at("alpha"), ["alpha/bot/instructions.md"]]]);
  });

  it("reloads every agent for a file outside them, and a folder that just became an agent", () => {
    writeFiles(root, { "gamma/bot/instructions.md": "g" });
    const changes = changedAgents(root, folders, [at("lib", "shared.ts"), at("gamma", "bot", "instructions.md")]);
    expect(Object.fromEntries(changes)).toEqual({
      [at("alpha")]: ["lib/shared.ts"],
      [at("Beta Two")]: ["lib/shared.ts"],
      [at("gamma")]: ["gamma/bot/instructions.md"],
    });
  });

  it("reloads the one agent for any file of its folder", () => {
    const one = devFoldersOf(at("alpha"));
    expect([...changedAgents(at("alpha"), one, [at("alpha", "README.md")])]).toEqual([[at("alpha"), ["README.md"]]]);
  });
});
