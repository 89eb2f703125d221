// Packs files into a .tar.gz in the browser, so a folder picked or dropped on the upload page
// travels as one archive (the server accepts .zip and .tar.gz). ustar format: names up to 255
// bytes through the prefix field, which covers any sensible agent folder.

export type ArchiveFile = { path: string; bytes: Uint8Array };

const encoder = new TextEncoder();

function writeString(block: Uint8Array, offset: number, length: number, value: string): void {
  block.set(encoder.encode(value).subarray(0, length), offset);
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  writeString(block, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

/** Splits a long path into ustar's prefix (≤155) and name (≤100) at a slash. */
function splitPath(path: string): { prefix: string; name: string } {
  if (encoder.encode(path).length <= 100) return { prefix: "", name: path };
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) return { prefix, name };
  }
  throw new Error(`the path ${path} is too long to upload`);
}

function header(path: string, size: number, mtime: number): Uint8Array {
  const block = new Uint8Array(512);
  const { prefix, name } = splitPath(path);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, mtime);
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  block[156] = 0x30; // "0": a regular file
  writeString(block, 257, 6, "ustar\0");
  writeString(block, 263, 2, "00");
  writeString(block, 345, 155, prefix);
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  writeString(block, 148, 8, checksum.toString(8).padStart(6, "0") + "\0 ");
  return block;
}

export function tarOf(files: ArchiveFile[], mtime = Math.floor(Date.now() / 1000)): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const file of files) {
    parts.push(header(file.path, file.bytes.byteLength, mtime), file.bytes);
    const padding = (512 - (file.bytes.byteLength % 512)) % 512;
    if (padding) parts.push(new Uint8Array(padding));
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

export async function tarGzOf(files: ArchiveFile[]): Promise<Blob> {
  const stream = new Blob([tarOf(files) as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).blob();
}

/** Folders an upload never needs: dependencies, VCS data, build output. */
export function isUploadable(path: string): boolean {
  return !path
    .split("/")
    .some((part) => part === "node_modules" || part === ".git" || part === ".next" || part === ".DS_Store");
}
