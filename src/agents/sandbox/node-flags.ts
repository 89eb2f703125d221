// Node's permission model flags for a sandbox: read its bundle, read and write its own
// directories, nothing else; no child processes, worker threads or native addons (none are
// granted). The flag was renamed when the model left experimental status in Node 22.
import path from "node:path";

const major = Number(process.versions.node.split(".")[0]);

export function permissionFlags(options: { bundleDir: string; writableDirs: string[] }): string[] {
  const flags = [major >= 22 ? "--permission" : "--experimental-permission"];
  flags.push(`--allow-fs-read=${path.resolve(options.bundleDir)}`);
  for (const dir of options.writableDirs) {
    flags.push(`--allow-fs-read=${path.resolve(dir)}`, `--allow-fs-write=${path.resolve(dir)}`);
  }
  return flags;
}
