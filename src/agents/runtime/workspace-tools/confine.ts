// The security boundary of the workspace tools: the model names paths relative to its session
// workspace and must reach nothing outside it, neither lexically ("../", "/etc") nor through a
// symlink that lives inside but points outside.
import fs from "node:fs";
import path from "node:path";

export type WorkspacePath = {
  /** Real path of the workspace root. */
  root: string;
  absolute: string;
  /** Workspace-relative, "/"-separated: what messages and results show the model. */
  shown: string;
};

export function workspaceRoot(workspaceDir: string): string {
  try {
    // Compared against realpaths below, so the root must be real too (e.g. /tmp → /private/tmp).
    return fs.realpathSync(workspaceDir);
  } catch {
    throw new Error("the session workspace does not exist yet");
  }
}

export function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

export function shownPath(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join("/") || ".";
}

/** Resolves a workspace-relative path, or throws an Error naming it when it would leave the workspace. */
export function resolveInWorkspace(workspaceDir: string, requested: string): WorkspacePath {
  if (requested.includes("\0")) throw new Error(`path "${requested}" contains a NUL byte`);
  if (path.isAbsolute(requested)) {
    throw new Error(`path "${requested}" is absolute; use a path relative to the workspace root`);
  }
  const root = workspaceRoot(workspaceDir);
  const absolute = path.resolve(root, requested);
  if (!isWithin(root, absolute)) throw new Error(`path "${requested}" is outside the workspace`);
  // Missing components are created fresh by write (never symlinks), so checking the real path of
  // the nearest existing ancestor covers every link the operation could follow. A link swapped in
  // between this check and the operation is not caught; only the agent itself could race it.
  let existing = absolute;
  while (!lexists(existing)) existing = path.dirname(existing);
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    throw new Error(`path "${requested}" goes through a broken symlink`);
  }
  if (!isWithin(root, real)) throw new Error(`path "${requested}" resolves through a symlink to outside the workspace`);
  return { root, absolute, shown: shownPath(root, absolute) };
}

function lexists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
