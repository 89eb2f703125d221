// JSON text that Postgres can store. jsonb refuses the escape \u0000 and unpaired UTF-16
// surrogates ("\ud800" alone), both of which JSON.stringify writes for strings that hold them —
// and models and tools produce such strings. Refusing the append would fail the step after its
// tool had run, and the turn would run it again; so what models and tools produce is stored with
// U+FFFD in each such place (docs/turns.md, "Failures"). Request bodies are refused instead (400).

const suspect = /\\u0000|\\ud[89a-f]/i;
// A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what Postgres jsonb cannot store.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** JSON.stringify, with NUL and lone surrogates replaced by U+FFFD in every string and key. */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  // The common case costs one scan of text already made; only a hit walks the value.
  return text !== undefined && suspect.test(text) ? JSON.stringify(storable(value)) : text;
}

/** The value with NUL and lone surrogates replaced by U+FFFD in every string and key. */
export function storable(value: unknown): unknown {
  if (typeof value === "string") return value.replace(unstorable, "\ufffd");
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === "function") return storable(json.call(value));
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [storable(key) as string, storable(inner)]));
  }
  return value;
}
