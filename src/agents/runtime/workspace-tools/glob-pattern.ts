// Glob matching for the glob tool and grep's file filter. Node 20 has no fs.globSync, and the
// walk must stay inside the workspace anyway, so patterns are compiled to a RegExp and tested
// against "/"-separated relative paths. Dotfiles match like any other name: the workspace's own
// .cursor/ and .agentfold/ folders are things the model looks for.
export function globToRegExp(pattern: string): RegExp {
  try {
    return new RegExp(`^${translate(pattern)}$`);
  } catch {
    // Unbalanced braces or a reversed range ("[z-a]") make an invalid RegExp.
    throw new Error(`invalid glob pattern "${pattern}"`);
  }
}

function translate(pattern: string): string {
  let out = "";
  let depth = 0; // open {…} groups, so "," only means "or" inside one
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*" && pattern[i + 1] === "*") {
      // "**" crosses directories only as a whole segment; inside a name ("a**b") it is "*".
      const isSegment = (i === 0 || pattern[i - 1] === "/") && (i + 2 === pattern.length || pattern[i + 2] === "/");
      if (!isSegment) out += "[^/]*";
      else if (i + 2 === pattern.length) out += ".*";
      else out += "(?:.*/)?"; // "**/" also matches no directory at all
      i += isSegment && i + 2 < pattern.length ? 2 : 1;
    } else if (char === "*") out += "[^/]*";
    else if (char === "?") out += "[^/]";
    else if (char === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        const body = pattern.slice(i + 1, end);
        const isNegated = body.startsWith("!") || body.startsWith("^");
        const members = (isNegated ? body.slice(1) : body).replace(/[\\[\]]/g, "\\$&");
        out += `[${isNegated ? "^" : ""}${members}]`;
        i = end;
      }
    } else if (char === "{" && pattern.includes("}", i)) {
      depth++;
      out += "(?:";
    } else if (char === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (char === "," && depth > 0) out += "|";
    else out += char.replace(/[.+^$()|\\{}\]]/g, "\\$&");
  }
  return out;
}

/** A pattern without "/" (like "*.ts") matches file names at any depth, as in ripgrep's --glob. */
export function fileFilter(pattern: string): (relative: string) => boolean {
  const regexp = globToRegExp(pattern);
  if (pattern.includes("/")) return (relative) => regexp.test(relative);
  return (relative) => regexp.test(relative.slice(relative.lastIndexOf("/") + 1));
}
