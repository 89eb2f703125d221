// What `agentfold dev` watches: every file under --dir but dependencies and dot-folders; a burst of
// saves is reported once, after it settles. Saves before the first scan is done are not seen, so
// dev says "ready" only after it.
import path from "node:path";
import { watch } from "chokidar";
import { isSkippedName } from "./dev-folders";

/** How long a burst of saves settles before one reload. */
export const settleMs = 150;

export type FolderWatch = {
  /** Settles once the first scan is done: saves from then on are seen. */
  ready: Promise<void>;
  close: () => Promise<void>;
};

export function watchFolder(dir: string, onChanges: (files: string[]) => void): FolderWatch {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const isIgnored = (file: string) => path.relative(dir, file).split(path.sep).some(isSkippedName);
  const watcher = watch(dir, { ignoreInitial: true, ignored: isIgnored });
  watcher.on("all", (_event, file) => {
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChanges(files);
    }, settleMs);
  });
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return { ready, close: () => (clearTimeout(timer), watcher.close()) };
}
