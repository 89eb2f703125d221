// Workspaces laid out ahead of time. A new session's first turn lays its workspace out before the
// model's first step: a few file system calls (the folders, AGENTS.md, the marker), about a
// millisecond on the turn's path. A version's workspace starts the same for every session (its
// seed files, skills, AGENTS.md and tool scripts come from the immutable version), so the worker
// lays copies out between turns and a new session takes one with a single rename(2): atomic, and
// on the same file system by construction (the copies wait under the agent's folder).
//
// A copy is complete before it is offered: it is laid out under a dot-name and renamed into the
// stock when done, so a crash leaves only dot-folders, which the next process's first refill
// clears (moving the stock aside in one rename, then deleting it). Any process may take any copy
// (rename lets one win); one that finds its copy gone lays the workspace out itself, as it would
// with an empty stock.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type WorkspaceStock = {
  /**
   * Moves a ready copy of `key`'s workspace to `workspaceDir`, which must not exist yet (or be an
   * empty folder). False when there was none to take or the workspace exists: the caller lays it
   * out. Either way, `layOut` is how copies of this key are made at the next refill.
   */
  take: (key: string, stockDir: string, workspaceDir: string, layOut: (dir: string) => boolean) => boolean;
  /** Tops the stock of every key taken from since the last refill up to its depth. Runs after the
   * caller's stack unwinds (the caller is finishing a turn). */
  refill: () => void;
};

type Shelf = { dir: string; ready: string[]; layOut: (dir: string) => boolean; cleared: boolean; isStocked: boolean };

export function createWorkspaceStock(options: { depth?: number; log?: (message: string) => void } = {}): WorkspaceStock {
  const { depth = 2, log = console.error } = options;
  const shelves = new Map<string, Shelf>();
  const wanted = new Set<Shelf>();
  const madeParents = new Set<string>();
  let scheduled = false;

  const fill = (shelf: Shelf) => {
    if (!shelf.cleared) {
      // Copies left by an earlier process (or a crash mid-way) are not known here: start over.
      // Moved aside in one rename first, so that a copy another process is taking right now is
      // either taken whole or not found, never found half deleted.
      clearAside(shelf.dir);
      shelf.cleared = true;
    }
    fs.mkdirSync(shelf.dir, { recursive: true });
    while (shelf.ready.length < depth) {
      const name = crypto.randomBytes(8).toString("hex");
      const building = path.join(shelf.dir, `.${name}`);
      // A version whose workspace cannot be laid out in full (its source folder is gone) has no stock.
      if (!shelf.layOut(building)) {
        shelf.isStocked = false;
        return void fs.rmSync(building, { recursive: true, force: true });
      }
      fs.renameSync(building, path.join(shelf.dir, name));
      shelf.ready.push(name);
    }
  };

  return {
    take(key, stockDir, workspaceDir, layOut) {
      let shelf = shelves.get(key);
      if (!shelf) shelves.set(key, (shelf = { dir: stockDir, ready: [], layOut, cleared: false, isStocked: true }));
      if (shelf.isStocked) wanted.add(shelf);
      const parent = path.dirname(workspaceDir);
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
          // The copy is gone (another process took it, or cleared the stock): try the next. A
          // parent deleted since (the agent's folder) is made again.
          madeParents.delete(parent);
          if (code !== "ENOENT") throw error;
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
