// Workspaces laid out ahead of time. A new session's first turn lays its workspace out before the
// model's first step: a few file system calls (the folders, AGENTS.md, the marker), about a
// millisecond on the turn's path. A version's workspace starts the same for every session (its
// seed files, skills, AGENTS.md and tool scripts come from the immutable version), so the worker
// lays copies out between turns and a new session takes one with a single rename(2): atomic, and
// on the same file system by construction (the copies wait under the agent's folder).
//
// A copy is complete before it is offered: it is laid out beside the stock under a dot-name and
// renamed into it when done. A process's first refill of a version clears what earlier processes
// left (moving the stock aside in one rename, then deleting it; build folders a crash left, once
// they are old). Any process may take any copy
// (rename lets one win); one that finds its copy gone lays the workspace out itself, as it would
// with an empty stock.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type WorkspaceStock = {
  /**
   * Moves a ready copy from `stockDir` (one version's stock) to `workspaceDir`, which must not
   * exist yet (or be an empty folder). False when there was none to take or the workspace exists:
   * the caller lays it out. Either way, `layOut` is how copies for this stock are made at the next
   * refill.
   */
  take: (stockDir: string, workspaceDir: string, layOut: (dir: string) => boolean) => boolean;
  /** Tops the stock of every key taken from since the last refill up to its depth. Runs after the
   * caller's stack unwinds (the caller is finishing a turn). */
  refill: () => void;
};

type Shelf = { dir: string; ready: string[]; layOut: (dir: string) => boolean; cleared: boolean; isStocked: boolean };

export function createWorkspaceStock(
  options: { depth?: number; log?: (message: string) => void } = {},
): WorkspaceStock {
  const { depth = 2, log = console.error } = options;
  const shelves = new Map<string, Shelf>();
  const wanted = new Set<Shelf>();
  const madeParents = new Set<string>();
  let scheduled = false;

  const fill = (shelf: Shelf) => {
    const builds = path.dirname(shelf.dir);
    if (!shelf.cleared) {
      // Copies left by an earlier process (or a crash mid-way) are not known here: start over.
      // Moved aside in one rename first, so that a copy another process is taking right now is
      // either taken whole or not found, never found half deleted.
      clearAside(shelf.dir);
      clearStaleBuilds(builds);
      shelf.cleared = true;
    }
    while (shelf.ready.length < depth) {
      const name = crypto.randomBytes(8).toString("hex");
      // Built beside the stock, not in it: another process clearing the stock meanwhile (its
      // first refill) cannot cut a copy in two.
      const building = path.join(builds, `${buildPrefix}${name}`);
      let isWhole = false;
      try {
        isWhole = shelf.layOut(building);
        if (isWhole) {
          fs.mkdirSync(shelf.dir, { recursive: true });
          fs.renameSync(building, path.join(shelf.dir, name));
          shelf.ready.push(name);
        }
      } finally {
        if (!isWhole) {
          // A version whose workspace cannot be laid out in full (its source folder is gone, a
          // write failed) keeps no stock in this process.
          shelf.isStocked = false;
          fs.rmSync(building, { recursive: true, force: true });
        }
      }
      if (!isWhole) return;
    }
  };

  return {
    take(stockDir, workspaceDir, layOut) {
      let shelf = shelves.get(stockDir);
      if (!shelf)
        shelves.set(stockDir, (shelf = { dir: stockDir, ready: [], layOut, cleared: false, isStocked: true }));
      if (shelf.isStocked) wanted.add(shelf);
      const parent = path.dirname(workspaceDir);
      let parentRemade = false;
      while (shelf.ready.length > 0) {
        const copy = path.join(shelf.dir, shelf.ready.pop()!);
        try {
          if (!madeParents.has(parent)) fs.mkdirSync(parent, { recursive: true });
          madeParents.add(parent);
          fs.renameSync(copy, workspaceDir);
          return true;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // The workspace exists: it is not new, and the copy stays for another session.
          if (code === "ENOTEMPTY" || code === "EEXIST") {
            shelf.ready.push(path.basename(copy));
            return false;
          }
          // The workspace's parent was deleted since it was made here (the agent's folder): made
          // again, and the same copy tried once more.
          if (code === "ENOENT" && !parentRemade && !fs.existsSync(parent) && fs.existsSync(copy)) {
            parentRemade = true;
            madeParents.delete(parent);
            shelf.ready.push(path.basename(copy));
            continue;
          }
          // The copy is gone (another process took it, or cleared the stock): the next. Anything
          // else is no reason to fail a turn: it lays its workspace out itself.
          if (code !== "ENOENT") {
            log(
              `workspace stock: could not move ${copy} into place (${(error as Error).message}); laying the workspace out`,
            );
            return false;
          }
        }
      }
      return false;
    },
    refill() {
      if (scheduled || wanted.size === 0) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        for (const shelf of wanted) {
          try {
            fill(shelf);
          } catch (error) {
            // The stock only saves time: a failure here leaves turns laying workspaces out themselves.
            log(`workspace stock: ${shelf.dir}: ${(error as Error).message}`);
          }
        }
        wanted.clear();
      });
    },
  };
}

function clearAside(dir: string): void {
  const aside = `${dir}.cleared-${crypto.randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // This one, and any a crash left behind: nobody takes from them.
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.cleared-`;
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    if (name.startsWith(prefix)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

const buildPrefix = ".build-";
// A copy is laid out in milliseconds: a build folder this old was left by a process that died.
const staleBuildMs = 10 * 60_000;

function clearStaleBuilds(dir: string): void {
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!name.startsWith(buildPrefix)) continue;
    const build = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(build).mtimeMs > staleBuildMs) fs.rmSync(build, { recursive: true, force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}
