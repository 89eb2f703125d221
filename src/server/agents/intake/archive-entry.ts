// One entry of an uploaded archive as both readers (zip, tar.gz) yield it. The name is raw: it
// is judged in one place, normalize-entry-path.ts, whatever the format.
export type EntryType = "file" | "directory" | "symlink" | "hard link" | "device" | "fifo" | "other";

export type ArchiveEntry = {
  name: string;
  type: EntryType;
  /** Contents of a file. A tar is one stream, so read it to the end before the next entry. */
  read: () => AsyncIterable<Uint8Array>;
};
