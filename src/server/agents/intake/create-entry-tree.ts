// The folder tree an archive describes, built entry by entry: rejects a path given twice (or as
// both a file and a folder) and finds the single wrapping folder that zipping a folder adds.
import { agentRootFolders } from "@/agents/loader/layout";
import { AppError } from "@/server/errors";

type Kind = "file" | "directory";

export type EntryTree = {
  add: (path: string, kind: Kind) => void;
  /** The one top-level folder holding everything, if there is one. */
  wrapperFolder: () => string | undefined;
};

export function createEntryTree(): EntryTree {
  // Every path, including folders only implied by a deeper entry.
  const kinds = new Map<string, Kind>();
  // Paths an entry named explicitly: naming one twice is a duplicate.
  const listed = new Set<string>();
  const reject = (path: string, reason: string) =>
    new AppError("invalid_upload", `entry ${JSON.stringify(path)} ${reason}`);

  return {
    add(path, kind) {
      const segments = path.split("/");
      for (let depth = 1; depth < segments.length; depth += 1) {
        const ancestor = segments.slice(0, depth).join("/");
        if (kinds.get(ancestor) === "file") throw reject(ancestor, "is both a file and a folder");
        kinds.set(ancestor, "directory");
      }
      if (listed.has(path)) throw reject(path, "appears more than once in the archive");
      if (kind === "file" && kinds.get(path) === "directory") {
        throw reject(path, "is both a file and a folder");
      }
      listed.add(path);
      kinds.set(path, kind);
    },
    wrapperFolder() {
      const topLevel = new Set([...kinds.keys()].map((path) => path.split("/")[0] ?? path));
      if (topLevel.size !== 1) return undefined;
      const [name] = topLevel;
      // An archive of only `bot/` is an agent folder at its smallest, not a wrapped one.
      if ((agentRootFolders as readonly string[]).includes(name ?? "")) return undefined;
      return name !== undefined && kinds.get(name) === "directory" ? name : undefined;
    },
  };
}
