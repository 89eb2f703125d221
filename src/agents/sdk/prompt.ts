// `prompt` (docs/agent-folders.md, "The `define*` helpers"): write multi-line text indented like
// the code around it and get it back dedented. Drops the leading newline and the closing line,
// strips the common indentation of the template's own lines, keeps blank lines and relative
// indentation. A multi-line value continues at the indentation of the line it is interpolated on;
// an array value becomes one line per item.

export type PromptTag = {
  (strings: TemplateStringsArray, ...values: unknown[]): string;
  /** The same text, one entry per line (e.g. a GitHub channel's `context`). */
  lines(strings: TemplateStringsArray, ...values: unknown[]): string[];
};

function literalsOf(strings: TemplateStringsArray): string[] {
  // An invalid escape leaves the cooked string undefined; the raw text is the best reading.
  return strings.map((cooked, index) => cooked ?? strings.raw[index] ?? "");
}

/** The smallest indentation of a non-blank line that starts inside the template text. The first
 * line is skipped: it follows the backtick, so its indentation means nothing. */
function commonIndent(literals: string[]): number {
  let smallest = Infinity;
  literals.forEach((literal, index) => {
    const lines = literal.split("\n").slice(1);
    lines.forEach((line, lineIndex) => {
      const continuesIntoValue = lineIndex === lines.length - 1 && index < literals.length - 1;
      if (line.trim() === "" && !continuesIntoValue) return;
      smallest = Math.min(smallest, line.length - line.trimStart().length);
    });
  });
  return smallest === Infinity ? 0 : smallest;
}

/** Strips `indent` from every line start; a blank line becomes empty, unless it is the last one
 * and a value follows on it, where the whitespace is that value's indentation. */
function dedentLiteral(literal: string, indent: number, continuesIntoValue: boolean): string {
  const lines = literal.split("\n");
  return lines
    .map((line, index) => {
      if (index === 0) return line;
      const isBlank = line.trim() === "" && !(continuesIntoValue && index === lines.length - 1);
      return isBlank ? "" : line.slice(indent);
    })
    .join("\n");
}

function stringify(value: unknown): string {
  return Array.isArray(value) ? value.map(stringify).join("\n") : String(value);
}

function indentOfLastLine(text: string): string {
  const line = text.slice(text.lastIndexOf("\n") + 1);
  return line.slice(0, line.length - line.trimStart().length);
}

function render(strings: TemplateStringsArray, values: unknown[]): string {
  const literals = literalsOf(strings);
  const indent = commonIndent(literals);
  let text = "";
  literals.forEach((literal, index) => {
    text += dedentLiteral(literal, indent, index < values.length);
    if (index >= values.length) return;
    const lead = indentOfLastLine(text);
    text += stringify(values[index])
      .split("\n")
      .map((line, lineIndex) => (lineIndex === 0 || line === "" ? line : lead + line))
      .join("\n");
  });
  const lines = text.split("\n");
  if (lines.length > 1 && lines[0]?.trim() === "") lines.shift();
  if (lines.length > 1 && lines[lines.length - 1]?.trim() === "") lines.pop();
  return lines.join("\n");
}

export const prompt: PromptTag = Object.assign(
  (strings: TemplateStringsArray, ...values: unknown[]) => render(strings, values),
  {
    lines: (strings: TemplateStringsArray, ...values: unknown[]): string[] => {
      const text = render(strings, values);
      return text === "" ? [] : text.split("\n");
    },
  },
);
