// Reads a .tar.gz upload entry by entry as one stream: gunzip → byte counter → tar parser. The
// counter sits before the parser so that oversized headers are cut off too, not just file data.
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract, type Header } from "tar-stream";
import { AppError } from "@/server/errors";
import type { ArchiveEntry, EntryType } from "./archive-entry";

const entryTypes: Partial<Record<Header["type"], EntryType>> = {
  file: "file",
  directory: "directory",
  symlink: "symlink",
  link: "hard link",
  "character-device": "device",
  "block-device": "device",
  fifo: "fifo",
};

export async function* readTarGzEntries({
  archive,
  onInflated,
}: {
  archive: Buffer;
  /** Called with each gunzipped chunk before it is parsed; throw to stop. */
  onInflated: (bytes: number) => void;
}): AsyncGenerator<ArchiveEntry> {
  const tar = extract();
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        onInflated(chunk.byteLength);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
  const feeding = pipeline(Readable.from([archive]), createGunzip(), counter, tar);
  // A failure here destroys `tar` with the same error, so it surfaces through the loop below.
  feeding.catch(() => undefined);
  try {
    for await (const source of tar) {
      const type = entryTypes[source.header.type] ?? "other";
      yield { name: source.header.name, type, read: () => readSource(source) };
    }
    await feeding;
  } catch (error) {
    throw toUploadError(error);
  }
}

async function* readSource(source: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of source) yield chunk as Uint8Array;
  } catch (error) {
    throw toUploadError(error);
  }
}

function toUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("Z_")) {
    return new AppError("invalid_upload", "corrupt or truncated gzip data");
  }
  return new AppError("invalid_upload", "the gzip does not contain a valid tar archive");
}
