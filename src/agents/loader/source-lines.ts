// Where in the author's sources a diagnostic belongs: a module's load error by its source-mapped
// stack (the sandbox runs with --enable-source-maps, so frames name the folder's own files), and a
// problem with one field by the first line that sets it.
import fs from "node:fs";
import path from "node:path";

export type SourceLocation = { file: string; line: number };

/** The first frame in the folder's own code (not node_modules): the author's call that failed. */
export function stackLocation(stack: string | undefined, folderDir: string): SourceLocation | undefined {
  if (!stack) return undefined;
  const root = path.resolve(folderDir) + path.sep;
  for (const match of stack.matchAll(/(?:file:\/\/)?(\/[^\s()]+?):(\d+):\d+/g)) {
    const file = decodeURIComponent(match[1]!);
    if (!file.startsWith(root) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    return { file: path.relative(root, file).split(path.sep).join("/"), line: Number(match[2]) };
  }
  return undefined;
}

/** `key`: a field name (its `key:` line) or a pattern of the line. */
export type FieldLines = (file: string | undefined, key: string | RegExp, fromLine?: number) => number | undefined;

/** A reader of the folder's files that answers the line of a field (`key:`) at or after
 * `fromLine`, cached per file. */
export function fieldLines(folderDir: string): FieldLines {
  const texts = new Map<string, string[] | null>();
  const linesOf = (file: string) => {
    if (!texts.has(file)) {
      try {
        texts.set(file, fs.readFileSync(path.join(folderDir, file), "utf8").split("\n"));
      } catch {
        texts.set(file, null);
      }
    }
    return texts.get(file);
  };
  return (file, key, fromLine = 1) => {
    const lines = file ? linesOf(file) : undefined;
    if (!lines) return undefined;
    const pattern = typeof key === "string" ? new RegExp(`(^|[\\s{,])["']?${escapeRegExp(key)}["']?\\s*:`) : key;
    const index = lines.findIndex((line, at) => at >= fromLine - 1 && pattern.test(line));
    return index >= 0 ? index + 1 : undefined;
  };
}

/** Where a define* error points: the field it names (`defineAgent: runtime: …`) within the failed
 * call, else the call itself. */
export function definitionLocation(at: SourceLocation, message: string, lineOf: FieldLines): SourceLocation {
  const field = /^\w+(?:\(\))?: ([A-Za-z_$][\w$]*)/.exec(message)?.[1];
  const line = field ? lineOf(at.file, field, at.line) : undefined;
  return line ? { file: at.file, line } : at;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// What a message says about where its problem is written, for diagnostics found without a stack.
const placeRules: [RegExp, (match: RegExpExecArray) => string | RegExp][] = [
  [/^model /, () => "model"],
  [/^cron "/, () => "cron"],
  [/^uses \$\{(\w+)\}/, (match) => new RegExp(escapeRegExp(`\${${match[1]}}`))],
  [/the default export is not/, () => /export\s+default/],
  [/^subagent '.*' has no description/, () => /define\w+\(/],
  [/^a peer agent in host-connections/, () => "agent"],
  [/^the hook has an empty `events` map/, () => "events"],
  [/^\w+(?:\(\))?: ([A-Za-z_$][\w$]*)/, (match) => match[1]!],
];

/** Fills in the line of diagnostics that name a file of the folder but no line, where the
 * message says which field or statement it is about. */
export function placeDiagnostics<T extends { file?: string; line?: number; message: string }>(
  items: T[],
  lineOf: FieldLines,
): void {
  for (const item of items) {
    if (item.line || !item.file) continue;
    for (const [pattern, key] of placeRules) {
      const match = pattern.exec(item.message);
      const line = match ? lineOf(item.file, key(match)) : undefined;
      if (line) {
        item.line = line;
        break;
      }
    }
  }
}
