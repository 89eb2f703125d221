// Writes one file of an upload under the extraction root, counting its bytes as they arrive.
import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";

// O_EXCL: never overwrite (a duplicate only the file system sees, e.g. "A.md" and "a.md" on a
// case-insensitive disk). O_NOFOLLOW: never write through a symlink, whoever planted it.
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
// Archive modes are ignored: uploaded files are data, never executables or setuid binaries.
const fileMode = 0o644;

export async function writeEntryFile({
  root,
  relativePath,
  chunks,
  onChunk,
}: {
  root: string;
  /** Already normalized by normalizeEntryPath. */
  relativePath: string;
  chunks: AsyncIterable<Uint8Array>;
  /** Called before each chunk is written; throw to stop. */
  onChunk: (bytes: number) => void;
}): Promise<number> {
  const target = path.join(root, relativePath);
  await mkdir(path.dirname(target), { recursive: true });
  const file = await open(target, createFlags, fileMode).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    const label = JSON.stringify(relativePath);
    throw new AppError("invalid_upload", `entry ${label} appears more than once in the archive`);
  });
  let size = 0;
  try {
    for await (const chunk of chunks) {
      onChunk(chunk.byteLength);
      size += chunk.byteLength;
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return size;
}
