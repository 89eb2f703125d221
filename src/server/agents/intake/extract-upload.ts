// Safe intake of an uploaded agent archive (.zip or .tar.gz). Every entry is judged before it
// touches the disk, limits hold while inflating, and the agent folder appears at destDir only
// once the whole archive has passed: it is extracted beside destDir, then renamed into place.
import { chmod, lstat, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";
import type { ArchiveEntry } from "./archive-entry";
import { createEntryTree } from "./create-entry-tree";
import { createUploadBudget, type UploadBudget } from "./create-upload-budget";
import { detectArchiveFormat, type ArchiveFormat } from "./detect-archive-format";
import { normalizeEntryPath } from "./normalize-entry-path";
import { readTarGzEntries } from "./read-tar-gz-entries";
import { readZipEntries } from "./read-zip-entries";
import { formatBytes, resolveUploadLimits, type UploadLimits } from "./upload-limits";
import { writeEntryFile } from "./write-entry-file";

export type { UploadLimits } from "./upload-limits";

export type ExtractedFile = { path: string; size: number };

export type ExtractedUpload = { format: ArchiveFormat; files: ExtractedFile[]; totalBytes: number };

export async function extractUpload({
  archive,
  destDir,
  limits: overrides,
}: {
  archive: Buffer;
  /** Must not exist yet, or be an empty folder. */
  destDir: string;
  limits?: Partial<UploadLimits>;
}): Promise<ExtractedUpload> {
  const limits = resolveUploadLimits(overrides);
  if (archive.byteLength > limits.maxArchiveBytes) {
    const limit = formatBytes(limits.maxArchiveBytes);
    throw new AppError("payload_too_large", `archive is larger than ${limit}`);
  }
  const format = detectArchiveFormat(archive);
  await assertDestinationFree(destDir);

  const parent = path.dirname(destDir);
  await mkdir(parent, { recursive: true });
  // A sibling of destDir, so the final rename stays on one file system and is atomic.
  const tempDir = await mkdtemp(path.join(parent, `.${path.basename(destDir)}.upload-`));
  try {
    const budget = createUploadBudget({ limits, archiveBytes: archive.byteLength });
    const entries =
      format === "zip"
        ? readZipEntries(archive)
        : readTarGzEntries({ archive, onInflated: (bytes) => budget.countTarBytes(bytes) });
    const { files, wrapper } = await extractEntries({ entries, root: tempDir, budget });
    if (files.length === 0) throw new AppError("invalid_upload", "archive contains no files");

    const root = wrapper === undefined ? tempDir : path.join(tempDir, wrapper);
    // mkdtemp makes the folder 0700; the agent folder gets the same mode whether wrapped or not.
    await chmod(root, 0o755);
    await moveIntoPlace(root, destDir);
    const unwrap = (file: string) => (wrapper === undefined ? file : file.slice(wrapper.length + 1));
    return {
      format,
      files: files.map((file) => ({ ...file, path: unwrap(file.path) })).sort(byPath),
      totalBytes: files.reduce((total, file) => total + file.size, 0),
    };
  } finally {
    // On rejection this removes everything; after success, only the emptied temporary folder.
    await rm(tempDir, { recursive: true, force: true });
  }
}

async function extractEntries({
  entries,
  root,
  budget,
}: {
  entries: AsyncIterable<ArchiveEntry>;
  root: string;
  budget: UploadBudget;
}): Promise<{ files: ExtractedFile[]; wrapper: string | undefined }> {
  const tree = createEntryTree();
  const files: ExtractedFile[] = [];
  const countBytes = (bytes: number) => budget.countFileBytes(bytes);
  for await (const entry of entries) {
    budget.countEntry();
    const relativePath = normalizeEntryPath(entry.name);
    assertPlainEntry(entry);
    if (entry.type === "directory") {
      if (relativePath === "" || isIgnored(relativePath)) continue;
      tree.add(relativePath, "directory");
      await mkdir(path.join(root, relativePath), { recursive: true });
      continue;
    }
    if (isIgnored(relativePath)) {
      // Read anyway: a tar is one stream, and its bytes still count against the limits.
      for await (const chunk of entry.read()) countBytes(chunk.byteLength);
      continue;
    }
    if (relativePath === "") throw rejectEntry(entry, "is a file without a name");
    tree.add(relativePath, "file");
    const chunks = entry.read();
    const size = await writeEntryFile({ root, relativePath, chunks, onChunk: countBytes });
    files.push({ path: relativePath, size });
  }
  return { files, wrapper: tree.wrapperFolder() };
}

// Links could point anywhere on the host once the agent runs; devices and FIFOs have no place in
// an agent folder. Only regular files and folders get through.
function assertPlainEntry(entry: ArchiveEntry): void {
  if (entry.type === "file" || entry.type === "directory") return;
  const what = entry.type === "other" ? "of an unsupported type" : `a ${entry.type}`;
  throw rejectEntry(entry, `is ${what}; only regular files and folders are allowed`);
}

function rejectEntry(entry: ArchiveEntry, reason: string): AppError {
  return new AppError("invalid_upload", `entry ${JSON.stringify(entry.name)} ${reason}`);
}

// Finder metadata, added by macOS when zipping; never part of the agent.
function isIgnored(relativePath: string): boolean {
  const isFinderFolder = relativePath.split("/")[0] === "__MACOSX";
  return isFinderFolder || path.posix.basename(relativePath) === ".DS_Store";
}

async function assertDestinationFree(destDir: string): Promise<void> {
  // lstat: a symlink to an empty folder is not an empty folder we may replace.
  const stats = await lstat(destDir).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  });
  if (stats === undefined) return;
  if (!stats.isDirectory() || (await readdir(destDir)).length > 0) throw destinationTaken();
}

async function moveIntoPlace(root: string, destDir: string): Promise<void> {
  try {
    // rename() replaces an empty folder and fails on anything else, so a destination filled
    // meanwhile (a concurrent upload) is never merged into or overwritten.
    await rename(root, destDir);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") throw destinationTaken();
    throw error;
  }
}

function destinationTaken(): AppError {
  return new AppError("conflict", "the destination folder for this upload is not empty");
}

function byPath(a: ExtractedFile, b: ExtractedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
