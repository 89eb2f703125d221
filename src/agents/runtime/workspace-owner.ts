// What the platform writes into a workspace belongs to the sandbox's user (isolation.ts), so
// agent code can change it: as root, the platform hands each file and folder it makes over.
// Running as another user, the sandbox is that user and nothing needs handing over.
import fs from "node:fs";
import path from "node:path";
import { isRunningAsRoot, sandboxUser } from "@/agents/sandbox/isolation";

const owner = isRunningAsRoot() ? sandboxUser : undefined;

/** Hands `target` to the sandbox's user, with every folder from `from` (made by the same call)
 * down to it. */
export function handOver(target: string, from?: string): void {
  if (!owner) return;
  if (from) {
    for (let dir = path.dirname(target); dir.length >= from.length; dir = path.dirname(dir)) {
      fs.lchownSync(dir, owner.uid, owner.gid);
      if (dir === from) break;
    }
  }
  fs.lchownSync(target, owner.uid, owner.gid);
}

/** Makes a workspace folder that agent code can write in. Folders made on the way stay the
 * platform's, and agent code may enter them but not list them (storage.ts). */
export function ensureWorkspaceDir(dir: string): void {
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o711 });
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  handOver(dir);
}
