// Per-send workspace files are checked before anything is recorded or sent: a path the worker
// cannot write as a file (outside the workspace, a folder, `.`) would fail its turn on every
// retry, so it is a 400 naming the path instead (docs/api.md#validation).
import { AppError } from "@/server/errors";
import { unstorableProblem } from "@/server/validation/schema";

/** Why `relative` cannot name a file in the workspace, or undefined when it can. */
export function workspacePathProblem(relative: string): string | undefined {
  if (relative === "") return "is empty";
  const unstorable = unstorableProblem(relative);
  if (unstorable) return unstorable;
  // The worker reads a backslash as a separator too (src/agents/runtime/prepare-workspace.ts).
  const path = relative.replace(/\\/g, "/");
  if (path.startsWith("/")) return "must be relative to the workspace, not absolute";
  if (path.endsWith("/")) return "must name a file, not end with '/'";
  for (const segment of path.split("/")) {
    if (segment === "") return "must not have an empty segment ('//')";
    if (segment === "." || segment === "..") return `must not have a '${segment}' segment`;
  }
  return undefined;
}

export function assertWorkspacePaths(files: Record<string, string> | undefined): void {
  for (const file of Object.keys(files ?? {})) {
    const problem = workspacePathProblem(file);
    if (problem) throw new AppError("invalid_input", `workspaceFiles: path '${file}' ${problem}`);
  }
}
