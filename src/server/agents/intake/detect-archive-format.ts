import { AppError } from "@/server/errors";

export type ArchiveFormat = "zip" | "tar.gz";

const zipLocalFileHeader = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const zipEmptyArchive = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const gzipHeader = Buffer.from([0x1f, 0x8b]);

// By magic bytes only: the file name and content type both come from the client. Whether a gzip
// holds a tar is only known once it is read (read-tar-gz-entries.ts).
export function detectArchiveFormat(archive: Buffer): ArchiveFormat {
  const startsWith = (magic: Buffer) => archive.subarray(0, magic.length).equals(magic);
  if (startsWith(zipLocalFileHeader) || startsWith(zipEmptyArchive)) return "zip";
  if (startsWith(gzipHeader)) return "tar.gz";
  throw new AppError("invalid_upload", "unsupported archive format: expected a .zip or .tar.gz");
}
