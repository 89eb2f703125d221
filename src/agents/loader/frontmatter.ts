// Markdown frontmatter: a leading `---` YAML block, as in skills and schedules.
import { parse } from "yaml";

export type Frontmatter = { data: Record<string, unknown>; body: string };

const block = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Splits frontmatter from the body. Throws with a readable message on malformed YAML. */
export function parseFrontmatter(text: string): Frontmatter {
  const match = text.match(block);
  if (!match) return { data: {}, body: text };
  const data: unknown = parse(match[1] ?? "");
  if (data !== null && (typeof data !== "object" || Array.isArray(data))) {
    throw new Error("frontmatter must be a YAML mapping");
  }
  return { data: (data ?? {}) as Record<string, unknown>, body: text.slice(match[0].length) };
}

/** The first non-empty body line, without a leading `#`, as a fallback description. */
export function firstLine(body: string): string | undefined {
  const line = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line?.replace(/^#+\s*/, "");
}
