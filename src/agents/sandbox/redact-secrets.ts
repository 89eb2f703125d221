// Replaces secret values in text bound for logs, events or errors. Values shorter than 4
// characters are left alone: masking every "1" or "on" would garble the text and hide nothing.
export const redacted = "[secret]";

export function redactSecrets(text: string, values: Iterable<string>): string {
  // One pass, longest first: a value that contains another is replaced whole, and the marker
  // put in is never searched again (a value may well be "secret").
  const sorted = [...new Set(values)].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return text;
  const pattern = new RegExp(sorted.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return text.replace(pattern, redacted);
}
