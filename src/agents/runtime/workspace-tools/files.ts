// File helpers the workspace tools share: telling text from binary, and turning Node's fs errors
// into sentences the model can act on instead of "ENOENT: no such file or directory, open '/…'",
// which would also leak the host path of the workspace.
import fs from "node:fs/promises";

/** The same heuristic as git: a NUL byte in the first 8 KiB means binary. */
const sniffBytes = 8192;

export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, sniffBytes).includes(0);
}

export async function fileStartsBinary(absolute: string): Promise<boolean> {
  const handle = await fs.open(absolute, "r");
  try {
    const buffer = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(buffer, 0, sniffBytes, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export function binaryFileError(shown: string): Error {
  return new Error(`"${shown}" is a binary file; only text files can be read or edited`);
}

export function fsError(error: unknown, shown: string): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return new Error(`"${shown}" does not exist`);
    case "EISDIR":
      return new Error(`"${shown}" is a directory; use ls to list it`);
    case "ENOTDIR":
      return new Error(`"${shown}": a parent of this path is a file, not a directory`);
    case "EACCES":
    case "EPERM":
      return new Error(`permission denied for "${shown}"`);
    default:
      return new Error(`"${shown}": ${code ?? (error as Error).message}`);
  }
}

/** Runs an fs operation on a workspace path, rethrowing its failure as an fsError. */
export async function onPath<T>(shown: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw (error as NodeJS.ErrnoException)?.code ? fsError(error, shown) : error;
  }
}

/** Reads a whole text file; binary files are refused. */
export async function readTextFile(absolute: string, shown: string): Promise<string> {
  const stats = await onPath(shown, () => fs.stat(absolute));
  if (stats.isDirectory()) throw new Error(`"${shown}" is a directory; give a file path`);
  // A FIFO or device would block or never end.
  if (!stats.isFile()) throw new Error(`"${shown}" is not a regular file`);
  const buffer = await onPath(shown, () => fs.readFile(absolute));
  if (looksBinary(buffer)) throw binaryFileError(shown);
  return buffer.toString("utf8");
}
