// Paths inside the Agentfold installation (not the data directory).
import { createRequire } from "node:module";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "../../..");

const require = createRequire(import.meta.url);

/** The JavaScript entry of an installed package's CLI, run with this Node. */
export function packageBin(pkg: string, relative: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), relative);
}

/** Environment for children that run our TypeScript (tsx resolves the `@/` alias). */
export function nodeWithTsx(entry: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", path.join(projectRoot, entry)] };
}
