// Builds .zip and .tar.gz archives in memory for tests of the upload path, including unsafe ones
// that ordinary tools refuse to produce.
import { gzipSync } from "node:zlib";
import { pack, type Header } from "tar-stream";
import yazl from "yazl";

export type ZipEntry = {
  name: string;
  content?: string | Buffer;
  mode?: number;
  isDirectory?: boolean;
};
export type TarEntry = Partial<Header> & { name: string; content?: string | Buffer };

export async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.isDirectory) zip.addEmptyDirectory(entry.name);
    else zip.addBuffer(Buffer.from(entry.content ?? ""), entry.name, { mode: entry.mode });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// yazl refuses unsafe names, so a placeholder of the same length is patched afterwards, in both
// the local header and the central directory.
export async function zipWithUnsafeName(name: string): Promise<Buffer> {
  const unsafe = Buffer.from(name);
  const placeholder = Buffer.from("x".repeat(unsafe.length));
  const zip = await zipOf([{ name: placeholder.toString(), content: "pwned" }]);
  let at = zip.indexOf(placeholder);
  if (at === -1) throw new Error("placeholder not found in the zip");
  while (at !== -1) {
    unsafe.copy(zip, at);
    at = zip.indexOf(placeholder, at + 1);
  }
  return zip;
}

export async function tarGzOf(entries: TarEntry[]): Promise<Buffer> {
  const tar = pack();
  for (const { content, ...header } of entries) tar.entry(header, content ?? Buffer.alloc(0));
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** A zip of a folder given as `{ path: content }`, optionally wrapped in a top-level folder. */
export async function zipFiles(files: Record<string, string>, options: { wrap?: string } = {}): Promise<Buffer> {
  return zipOf(
    Object.entries(files).map(([name, content]) => ({
      name: options.wrap ? `${options.wrap}/${name}` : name,
      content,
    })),
  );
}
