// Reads a zip upload entry by entry, from the central directory. Names are decoded with yauzl's
// own rules but not validated by it (decodeStrings off), so zip and tar share one set of path
// rules and one set of messages.
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError } from "@/server/errors";
import type { ArchiveEntry, EntryType } from "./archive-entry";

const fileTypeMask = 0o170000;
// File modes in octal, as in stat(2).
const unixTypes = new Map<number, EntryType>([
  [0o120000, "symlink"],
  [0o020000, "device"],
  [0o060000, "device"],
  [0o010000, "fifo"],
  [0o140000, "other"],
  [0o040000, "directory"],
]);

export async function* readZipEntries(archive: Buffer): AsyncGenerator<ArchiveEntry> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(archive, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw corrupt(error);
  }
  try {
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      yield { name, type: entryType(entry, name), read: () => readEntry(zip, entry, name) };
    }
  } catch (error) {
    throw corrupt(error);
  } finally {
    zip.close();
  }
}

// Unix zippers keep st_mode in the high 16 bits. Extractors that honour it would create a
// symlink or device from such an entry, so it is refused here even though we write plain files.
function entryType(entry: Entry, name: string): EntryType {
  const unixType = unixTypes.get((entry.externalFileAttributes >>> 16) & fileTypeMask);
  if (unixType !== undefined) return unixType;
  return name.endsWith("/") ? "directory" : "file";
}

async function* readEntry(zip: ZipFile, entry: Entry, name: string): AsyncGenerator<Uint8Array> {
  const label = JSON.stringify(name);
  if (entry.isEncrypted()) throw new AppError("invalid_upload", `entry ${label} is encrypted`);
  if (!entry.canDecodeFileData()) {
    throw new AppError("invalid_upload", `entry ${label} uses an unsupported compression method`);
  }
  try {
    const stream = await zip.openReadStreamPromise(entry);
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw corrupt(error, label);
  }
}

function corrupt(error: unknown, label?: string): unknown {
  if (error instanceof AppError) return error;
  const detail = error instanceof Error ? `: ${error.message}` : "";
  const where = label === undefined ? "" : ` at entry ${label}`;
  return new AppError("invalid_upload", `corrupt or truncated zip archive${where}${detail}`);
}
