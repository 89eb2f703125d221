// How keys, paths and sizes appear in the stores' error messages.

/** A key or path as a message quotes it: JSON-quoted, cut after 80 characters. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** 1048576 → "1,048,576". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}
