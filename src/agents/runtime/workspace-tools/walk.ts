// Lists the files under a workspace directory for grep and glob, in a stable order (entries
// sorted by name, depth first), so capped results are the same on every call.
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isWithin } from "./confine";

// Dependency and VCS trees drown real matches and can be huge; the model can still search one
// by naming it as the path.
const skippedDirectories = new Set(["node_modules", ".git"]);

/** Absolute paths of the regular files under `directory`, plus symlinks to files that stay
 * inside `root`. Symlinked directories are not entered: they may lead outside or loop. */
export async function* walkFiles(root: string, directory: string): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(directory, { withFileTypes: true });
  } catch {
    return; // unreadable or vanished mid-walk: nothing to search there
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const absolute = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(entry.name)) yield* walkFiles(root, absolute);
    } else if (entry.isFile()) yield absolute;
    else if (entry.isSymbolicLink() && (await isFileInside(root, absolute))) yield absolute;
  }
}

async function isFileInside(root: string, link: string): Promise<boolean> {
  try {
    const real = await fs.realpath(link);
    return isWithin(root, real) && (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}
