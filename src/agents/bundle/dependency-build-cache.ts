// Builds of the npm packages an agent imports (bundle-dependencies.ts), kept while this process
// runs: `agentfold dev` packs the folder on every save, and its packages change only when the
// author installs. A build is reused while the same specifiers resolve to the same files and every
// file the build read is unchanged by size and modification time; npm gives every file it installs
// one fixed time, so its lockfiles (which every install rewrites) are checked as well.
import fs from "node:fs";
import path from "node:path";

type Kept = { result: unknown; stamps: Map<string, string> };

/** Per project root and import set; a handful, for a dev root of several agents. */
const kept = new Map<string, Kept>();
const maxKept = 16;

const installStateFiles = ["package-lock.json", "node_modules/.package-lock.json", "pnpm-lock.yaml", "yarn.lock"];

function stampOf(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : "-";
}

const stampsOf = (files: string[]) => new Map(files.map((file) => [file, stampOf(file)]));

/**
 * The kept build for `imported` under `root` when nothing it read has changed, else `build()`'s,
 * kept when it names the files it read (absolute paths): a failed build names none.
 */
export async function reuseOrBuild<T>(
  root: string,
  imported: Map<string, string>,
  build: () => Promise<{ result: T; inputs?: string[] }>,
): Promise<{ result: T; isReused: boolean }> {
  const key = JSON.stringify([root, [...imported].sort(([a], [b]) => a.localeCompare(b))]);
  const found = kept.get(key);
  if (found && [...found.stamps].every(([file, stamp]) => stampOf(file) === stamp)) {
    kept.delete(key);
    kept.set(key, found);
    return { result: found.result as T, isReused: true };
  }
  // Stamped before the build: an install while it runs makes the next pack build again.
  const lockStamps = stampsOf(installStateFiles.map((file) => path.join(root, file)));
  const { result, inputs } = await build();
  if (!inputs) {
    kept.delete(key);
    return { result, isReused: false };
  }
  if (kept.size >= maxKept) kept.delete(kept.keys().next().value!);
  kept.set(key, { result, stamps: new Map([...lockStamps, ...stampsOf(inputs)]) });
  return { result, isReused: false };
}
