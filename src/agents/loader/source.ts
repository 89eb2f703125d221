// The narrow interface the loader reads an agent folder through: a directory on disk, an
// extracted upload (also a directory), or files in memory for tests.
import fs from "node:fs/promises";
import path from "node:path";

export type AgentSource = {
  /** Every regular file, as a POSIX path relative to the folder root, sorted. */
  list: () => Promise<string[]>;
  read: (file: string) => Promise<Buffer>;
  /** Where it came from, for messages. */
  label: string;
};

const ignored = new Set(["node_modules", ".git", ".DS_Store", ".turbo", "dist", ".next"]);

export function diskSource(root: string): AgentSource {
  const absolute = path.resolve(root);
  async function walk(dir: string): Promise<string[]> {
    const entries = await fs.readdir(path.join(absolute, dir), { withFileTypes: true });
    const nested = await Promise.all(
      entries
        .filter((entry) => !ignored.has(entry.name))
        .map(async (entry) => {
          const relative = dir ? `${dir}/${entry.name}` : entry.name;
          if (entry.isDirectory()) return walk(relative);
          // Symlinks are not followed: an agent folder cannot reach outside itself.
          return entry.isFile() ? [relative] : [];
        }),
    );
    return nested.flat();
  }
  return {
    label: absolute,
    list: async () => (await walk("")).sort(),
    read: (file) => fs.readFile(path.join(absolute, file)),
  };
}

export function memorySource(files: Record<string, string | Buffer>, label = "memory"): AgentSource {
  return {
    label,
    list: async () => Object.keys(files).sort(),
    read: async (file) => {
      const content = files[file];
      if (content === undefined) throw new Error(`no such file: ${file}`);
      return Buffer.isBuffer(content) ? content : Buffer.from(content);
    },
  };
}
