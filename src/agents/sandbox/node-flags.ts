// Node's permission model flags for a sandbox, a second wall inside bubblewrap's: read its
// bundle and project, read and write its own directories, nothing else; no child processes, worker threads or native addons (none are
// granted). The flag was renamed when the model left experimental status in Node 22.
import path from "node:path";

const major = Number(process.versions.node.split(".")[0]);

export function permissionFlags(options: { readableDirs: string[]; writableDirs: string[] }): string[] {
  const flags = [major >= 22 ? "--permission" : "--experimental-permission"];
  for (const dir of outermost([...options.readableDirs, ...options.writableDirs])) flags.push(`--allow-fs-read=${dir}`);
  for (const dir of outermost(options.writableDirs)) flags.push(`--allow-fs-write=${dir}`);
  return flags;
}

/** Each directory once, without those inside another: Node 20 aborts on a path given twice. */
function outermost(dirs: string[]): string[] {
  const resolved = [...new Set(dirs.map((dir) => path.resolve(dir)))];
  return resolved.filter((dir) => !resolved.some((other) => other !== dir && dir.startsWith(other + path.sep)));
}
