import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspaceStock } from "./workspace-stock";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "workspace-stock-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const stockDir = () => path.join(root, "agent", "workspace-stock", "ver_1");
const workspace = (session: string) => path.join(root, "agent", "workspaces", session);
/** Lays out a workspace as the version would: AGENTS.md and the marker; counts its calls. */
function layOutCounting() {
  const calls: string[] = [];
  const layOut = (dir: string) => {
    calls.push(dir);
    fs.mkdirSync(path.join(dir, ".agentfold"), { recursive: true });
    fs.writeFileSync(path.join(dir, "AGENTS.md"), "You look up orders.\n");
    fs.writeFileSync(path.join(dir, ".agentfold", "prepared"), "");
    return true;
  };
  return { calls, layOut };
}
const refilled = async (stock: ReturnType<typeof createWorkspaceStock>) => {
  stock.refill();
  await new Promise((resolve) => setImmediate(resolve));
};
const ready = () => fs.readdirSync(stockDir()).filter((name) => !name.startsWith("."));

describe("workspace stock", () => {
  it("has nothing to give at first; after a refill, a new session's workspace is a laid-out copy, moved into place", async () => {
    const stock = createWorkspaceStock({ depth: 2 });
    const { calls, layOut } = layOutCounting();
    expect(stock.take(stockDir(), workspace("ses_a"), layOut)).toBe(false);
    expect(fs.existsSync(workspace("ses_a"))).toBe(false);
    expect(calls).toEqual([]); // nothing is laid out on the taker's stack

    await refilled(stock);
    expect(calls).toHaveLength(2);
    expect(ready()).toHaveLength(2);

    expect(stock.take(stockDir(), workspace("ses_b"), layOut)).toBe(true);
    expect(fs.readFileSync(path.join(workspace("ses_b"), "AGENTS.md"), "utf8")).toBe("You look up orders.\n");
    expect(fs.existsSync(path.join(workspace("ses_b"), ".agentfold", "prepared"))).toBe(true);
    expect(ready()).toHaveLength(1);

    await refilled(stock);
    expect(ready()).toHaveLength(2); // topped up to its depth, no further
    expect(calls).toHaveLength(3);
  });

  it("leaves a workspace that exists alone and keeps the copy for another session", async () => {
    const stock = createWorkspaceStock({ depth: 1 });
    const { layOut } = layOutCounting();
    stock.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(stock);
    fs.mkdirSync(workspace("ses_old"), { recursive: true });
    fs.writeFileSync(path.join(workspace("ses_old"), "notes.txt"), "written by a tool");

    expect(stock.take(stockDir(), workspace("ses_old"), layOut)).toBe(false);
    expect(fs.readdirSync(workspace("ses_old"))).toEqual(["notes.txt"]);
    expect(ready()).toHaveLength(1);
    expect(stock.take(stockDir(), workspace("ses_new"), layOut)).toBe(true);
  });

  it("goes on to the next copy when one is gone, and reports none when all are", async () => {
    const stock = createWorkspaceStock({ depth: 2 });
    const { layOut } = layOutCounting();
    stock.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(stock);
    // Another worker took one of them.
    fs.renameSync(path.join(stockDir(), ready()[0]!), path.join(root, "taken"));
    expect(stock.take(stockDir(), workspace("ses_b"), layOut)).toBe(true);
    expect(stock.take(stockDir(), workspace("ses_c"), layOut)).toBe(false);
    expect(fs.existsSync(workspace("ses_c"))).toBe(false);
  });

  it("starts over from what an earlier process left, half-made copies included", async () => {
    fs.mkdirSync(path.join(stockDir(), ".cut-off-midway"), { recursive: true });
    fs.mkdirSync(path.join(stockDir(), "old-copy"), { recursive: true });
    const stock = createWorkspaceStock({ depth: 1 });
    const { layOut } = layOutCounting();
    stock.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(stock);
    const names = fs.readdirSync(stockDir());
    expect(names).toHaveLength(1);
    expect(names[0]).not.toMatch(/^\.|old-copy/);
    // Cleared by moving the stock aside first, nothing of it is left beside it.
    expect(fs.readdirSync(path.dirname(stockDir()))).toEqual(["ver_1"]);
  });

  it("lays a copy out whole even when another process clears the stock meanwhile", async () => {
    const stock = createWorkspaceStock({ depth: 1 });
    const layOut = (dir: string) => {
      fs.mkdirSync(path.join(dir, ".agentfold"), { recursive: true });
      fs.writeFileSync(path.join(dir, "seed.txt"), "seeded first");
      // Another process's first refill moves the stock aside and deletes it, right now.
      if (fs.existsSync(stockDir())) {
        fs.renameSync(stockDir(), `${stockDir()}.cleared-other`);
        fs.rmSync(`${stockDir()}.cleared-other`, { recursive: true });
      }
      fs.writeFileSync(path.join(dir, "AGENTS.md"), "You look up orders.\n");
      fs.writeFileSync(path.join(dir, ".agentfold", "prepared"), "");
      return true;
    };
    fs.mkdirSync(stockDir(), { recursive: true });
    stock.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(stock);
    expect(stock.take(stockDir(), workspace("ses_b"), layOut)).toBe(true);
    expect(fs.readdirSync(workspace("ses_b")).sort()).toEqual([".agentfold", "AGENTS.md", "seed.txt"]);
  });

  it("lays the workspace out in the turn when a copy cannot be moved into place", async () => {
    const logged: string[] = [];
    const stock = createWorkspaceStock({ depth: 1, log: (message) => logged.push(message) });
    const { layOut } = layOutCounting();
    stock.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(stock);
    // The workspaces' parent is a file: no rename into it can work.
    fs.mkdirSync(path.join(root, "agent"), { recursive: true });
    fs.writeFileSync(path.join(root, "agent", "blocked"), "");
    expect(stock.take(stockDir(), path.join(root, "agent", "blocked", "workspaces", "ses_b"), layOut)).toBe(false);
    expect(logged.join("\n")).toMatch(/could not move/);
  });

  it("has a process whose copies another one cleared away (its first refill) lay workspaces out itself", async () => {
    const { layOut } = layOutCounting();
    const first = createWorkspaceStock({ depth: 1 });
    first.take(stockDir(), workspace("ses_a"), layOut);
    await refilled(first);
    // A second process starts over: the stock is moved aside in one rename, so a copy being taken
    // meanwhile is taken whole or not found, and afterwards the first process finds none.
    const second = createWorkspaceStock({ depth: 1 });
    second.take(stockDir(), workspace("ses_b"), layOut);
    await refilled(second);
    expect(first.take(stockDir(), workspace("ses_c"), layOut)).toBe(false);
    expect(fs.existsSync(workspace("ses_c"))).toBe(false);
    // The second process's own copy is whole.
    expect(second.take(stockDir(), workspace("ses_d"), layOut)).toBe(true);
    expect(fs.readdirSync(workspace("ses_d")).sort()).toEqual([".agentfold", "AGENTS.md"]);
  });

  it("keeps no stock of a version whose workspace cannot be laid out in full", async () => {
    const logged: string[] = [];
    const stock = createWorkspaceStock({ depth: 2, log: (message) => logged.push(message) });
    let tries = 0;
    const incomplete = (dir: string) => (tries++, fs.mkdirSync(dir, { recursive: true }), false);
    stock.take(stockDir(), workspace("ses_a"), incomplete);
    await refilled(stock);
    expect(fs.existsSync(stockDir()) ? fs.readdirSync(stockDir()) : []).toEqual([]);
    expect(fs.readdirSync(path.dirname(stockDir()))).toEqual([]); // nothing half-built left either
    expect(stock.take(stockDir(), workspace("ses_b"), incomplete)).toBe(false);
    await refilled(stock);
    expect(tries).toBe(1); // not tried again by this process

    // A failing layout is logged, never thrown at the turn that asked for the refill.
    const failing = () => {
      throw new Error("disk full");
    };
    stock.take(path.join(root, "agent", "workspace-stock", "ver_2"), workspace("ses_c"), failing);
    await refilled(stock);
    expect(logged.join("\n")).toMatch(/disk full/);
  });
});
