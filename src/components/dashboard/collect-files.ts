// Turns what a person picked or dropped into one archive to upload: an archive file as it is,
// or a folder packed as .tar.gz in the browser.
import { isUploadable, tarGzOf, type ArchiveFile } from "./tar-archive";

export type Picked = { archive: Blob; suggestedSlug: string; description: string };

const archivePattern = /\.(zip|tar\.gz|tgz)$/i;

function slugFrom(name: string): string {
  return (
    name
      .replace(archivePattern, "")
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "my-agent"
  );
}

/** Files from a folder picker: paths start with the folder's own name, which is dropped. */
export async function fromFolderFiles(files: File[]): Promise<Picked> {
  const root = (files[0]?.webkitRelativePath || files[0]?.name || "agent").split("/")[0]!;
  const entries: ArchiveFile[] = [];
  for (const file of files) {
    const path = (file.webkitRelativePath || file.name).split("/").slice(1).join("/");
    if (path && isUploadable(path)) entries.push({ path, bytes: new Uint8Array(await file.arrayBuffer()) });
  }
  if (entries.length === 0) throw new Error("that folder has no files to upload");
  return {
    archive: await tarGzOf(entries),
    suggestedSlug: slugFrom(root),
    description: `${root}/ (${entries.length} files)`,
  };
}

export function fromArchiveFile(file: File): Picked {
  if (!archivePattern.test(file.name))
    throw new Error(`${file.name} is not a .zip or .tar.gz; drop an archive or a folder`);
  return { archive: file, suggestedSlug: slugFrom(file.name), description: file.name };
}

/** A drop: one archive file, or one folder (read through the entries API). */
export async function fromDrop(transfer: DataTransfer): Promise<Picked> {
  const entry = transfer.items[0]?.webkitGetAsEntry?.();
  if (entry?.isDirectory) {
    const files = await readDirectory(entry as FileSystemDirectoryEntry, "");
    return {
      ...(await packed(files)),
      suggestedSlug: slugFrom(entry.name),
      description: `${entry.name}/ (${files.length} files)`,
    };
  }
  const file = transfer.files[0];
  if (!file) throw new Error("nothing was dropped; drop a .zip, a .tar.gz or a folder");
  return fromArchiveFile(file);
}

async function packed(files: ArchiveFile[]) {
  if (files.length === 0) throw new Error("that folder has no files to upload");
  return { archive: await tarGzOf(files) };
}

async function readDirectory(dir: FileSystemDirectoryEntry, prefix: string): Promise<ArchiveFile[]> {
  const reader = dir.createReader();
  const entries: FileSystemEntry[] = [];
  // readEntries returns at most ~100 entries per call; read until it returns none.
  for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) entries.push(...batch);
  const files: ArchiveFile[] = [];
  for (const entry of entries) {
    const path = prefix + entry.name;
    if (!isUploadable(path)) continue;
    if (entry.isDirectory) files.push(...(await readDirectory(entry as FileSystemDirectoryEntry, `${path}/`)));
    else {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      files.push({ path, bytes: new Uint8Array(await file.arrayBuffer()) });
    }
  }
  return files;
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}
