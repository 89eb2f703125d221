// NDJSON framing: one JSON value per line. The parser bounds line length so a broken or hostile
// peer cannot make a reader buffer without limit.
const encoder = new TextEncoder();

export function ndjsonLine(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) + "\n");
}

export const ndjsonHeaders = {
  "content-type": "application/x-ndjson; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/** Parses an NDJSON byte stream into values; a line longer than maxLineBytes is an error. */
export async function* parseNdjson(
  stream: ReadableStream<Uint8Array>,
  { maxLineBytes = 1024 * 1024 }: { maxLineBytes?: number } = {},
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    // Split once per chunk (not a slice per line): large replay chunks stay linear.
    const lines = (buffered + decoder.decode(chunk, { stream: true })).split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) yield JSON.parse(line) as unknown;
    if (buffered.length > maxLineBytes) throw new Error(`NDJSON line longer than ${maxLineBytes} bytes`);
  }
  if (buffered.trim()) yield JSON.parse(buffered) as unknown;
}
