// Splits a text stream into NDJSON lines across chunk boundaries. Bounded: a peer that never
// sends a newline cannot make the browser buffer without limit.
export type LineSplitter = {
  /** Adds a decoded chunk; returns the complete, non-blank lines it finished. */
  push(chunk: string): string[];
  /** The trailing line without a newline, once the stream has ended. */
  flush(): string[];
};

export function createLineSplitter({ maxLineChars = 1024 * 1024 }: { maxLineChars?: number } = {}): LineSplitter {
  let buffered = "";
  return {
    push(chunk) {
      const lines = (buffered + chunk).split("\n");
      buffered = lines.pop() ?? "";
      if (buffered.length > maxLineChars) throw new Error(`stream line longer than ${maxLineChars} characters`);
      return lines.map((line) => line.trim()).filter(Boolean);
    },
    flush() {
      const rest = buffered.trim();
      buffered = "";
      return rest ? [rest] : [];
    },
  };
}

/** The NDJSON lines of a response body, a network chunk's worth at a time (callers update once per
 * chunk, not per line). The reader's lock is released when the caller stops. */
export async function* lineChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<string[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = createLineSplitter();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      yield done
        ? [...splitter.push(decoder.decode()), ...splitter.flush()]
        : splitter.push(decoder.decode(value, { stream: true }));
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
