import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { extractUpload, type UploadLimits } from "./extract-upload";
import { tarGzOf, zipOf, zipWithUnsafeName, type TarEntry, type ZipEntry } from "@/testing/archives";

const agentFiles: Record<string, string> = {
  "agent.md": "# Weather agent\n\nAnswers questions about the weather.\n",
  "prompts/system.md": "You are a careful assistant.\n",
  "tools/forecast/index.ts": "export const forecast = () => 'sunny';\n",
};

const wrappedZipEntries: ZipEntry[] = [
  { name: "my-agent/", isDirectory: true },
  ...Object.entries(agentFiles).map(([name, content]) => ({ name: `my-agent/${name}`, content })),
  { name: "my-agent/.DS_Store", content: "finder" },
  { name: "__MACOSX/my-agent/._agent.md", content: "apple double" },
];

const wrappedTarEntries: TarEntry[] = [
  { name: "my-agent/", type: "directory" },
  { name: "my-agent/prompts/", type: "directory" },
  { name: "my-agent/tools/", type: "directory" },
  { name: "my-agent/tools/forecast/", type: "directory" },
  ...Object.entries(agentFiles).map(([name, content]) => ({ name: `my-agent/${name}`, content })),
  { name: "my-agent/.DS_Store", content: "finder" },
];

const createdDirs: string[] = [];

async function freshParent(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), "agentfold-intake-"));
  createdDirs.push(parent);
  return parent;
}

afterEach(async () => {
  await Promise.all(createdDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function expectRejected(archive: Buffer, fragment: string, limits?: Partial<UploadLimits>): Promise<void> {
  const parent = await freshParent();
  const destDir = path.join(parent, "agent");
  const error = await extractUpload({ archive, destDir, limits }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("invalid_upload");
  expect((error as AppError).message).toContain(fragment);
  // Nothing at destDir, no temp folder beside it, and nothing escaped into the parent.
  expect(await readdir(parent)).toEqual([]);
}

async function expectAgentAt(destDir: string): Promise<void> {
  for (const [name, content] of Object.entries(agentFiles)) {
    expect(await readFile(path.join(destDir, name), "utf8")).toBe(content);
  }
  expect((await readdir(destDir)).sort()).toEqual(["agent.md", "prompts", "tools"]);
}

const expectedFiles = Object.entries(agentFiles)
  .map(([name, content]) => ({ path: name, size: Buffer.byteLength(content) }))
  .sort((a, b) => a.path.localeCompare(b.path));
const expectedTotal = expectedFiles.reduce((total, file) => total + file.size, 0);

describe("extractUpload: good archives", () => {
  it.each([
    ["zip", () => zipOf(wrappedZipEntries)],
    ["tar.gz", () => tarGzOf(wrappedTarEntries)],
  ] as const)("extracts a %s of a wrapped agent folder at its root", async (format, build) => {
    const parent = await freshParent();
    const destDir = path.join(parent, "agent");
    const result = await extractUpload({ archive: await build(), destDir });
    expect(result).toEqual({ format, files: expectedFiles, totalBytes: expectedTotal });
    await expectAgentAt(destDir);
    expect(await readdir(parent)).toEqual(["agent"]);
  });

  it("keeps several top-level entries as they are and skips a ./ root entry", async () => {
    const parent = await freshParent();
    const destDir = path.join(parent, "agent");
    const archive = await tarGzOf([
      { name: "./", type: "directory" },
      ...Object.entries(agentFiles).map(([name, content]) => ({ name: `./${name}`, content })),
    ]);
    const result = await extractUpload({ archive, destDir });
    expect(result.files).toEqual(expectedFiles);
    await expectAgentAt(destDir);
  });

  it("does not strip a single top-level file or a folder next to a file", async () => {
    const parent = await freshParent();
    const destDir = path.join(parent, "agent");
    const archive = await zipOf([
      { name: "agent.md", content: "root" },
      { name: "prompts/system.md", content: "nested" },
    ]);
    const result = await extractUpload({ archive, destDir });
    expect(result.files.map((file) => file.path)).toEqual(["agent.md", "prompts/system.md"]);
  });

  it("fills an existing empty destination but refuses a non-empty one untouched", async () => {
    const parent = await freshParent();
    const emptyDest = path.join(parent, "empty");
    await mkdir(emptyDest);
    await extractUpload({ archive: await zipOf(wrappedZipEntries), destDir: emptyDest });
    await expectAgentAt(emptyDest);

    const fullDest = path.join(parent, "full");
    await mkdir(fullDest);
    await writeFile(path.join(fullDest, "keep.md"), "keep");
    const archive = await zipOf(wrappedZipEntries);
    const error = await extractUpload({ archive, destDir: fullDest }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect((error as AppError).code).toBe("conflict");
    expect(await readdir(fullDest)).toEqual(["keep.md"]);
    expect((await readdir(parent)).sort()).toEqual(["empty", "full"]);
  });
});

describe("extractUpload: unsafe entries", () => {
  it("rejects ../ traversal in a zip and a tar", async () => {
    const zip = await zipWithUnsafeName("../evil.txt");
    await expectRejected(zip, 'entry "../evil.txt" escapes the archive root');
    const tar = await tarGzOf([{ name: "my-agent/../../evil.txt", content: "pwned" }]);
    await expectRejected(tar, 'entry "my-agent/../../evil.txt" escapes the archive root');
  });

  it("rejects absolute paths in a zip and a tar", async () => {
    const zip = await zipWithUnsafeName("/tmp/evil.txt");
    await expectRejected(zip, 'entry "/tmp/evil.txt" has an absolute path');
    const tar = await tarGzOf([{ name: "/tmp/evil.txt", content: "pwned" }]);
    await expectRejected(tar, 'entry "/tmp/evil.txt" has an absolute path');
  });

  it("rejects a backslash path in a zip", async () => {
    const zip = await zipWithUnsafeName("my-agent\\..\\..\\evil.txt");
    await expectRejected(zip, 'entry "my-agent\\\\..\\\\..\\\\evil.txt" contains a backslash');
  });

  it("rejects a symlink in a zip (by its unix mode) and in a tar", async () => {
    const zip = await zipOf([
      { name: "my-agent/agent.md", content: "ok" },
      { name: "my-agent/link", content: "/etc/passwd", mode: 0o120777 },
    ]);
    await expectRejected(zip, 'entry "my-agent/link" is a symlink');
    const tar = await tarGzOf([
      { name: "my-agent/agent.md", content: "ok" },
      { name: "my-agent/link", type: "symlink", linkname: "/etc/passwd" },
    ]);
    await expectRejected(tar, 'entry "my-agent/link" is a symlink');
  });

  it("rejects a hard link, a FIFO and a device in a tar", async () => {
    const file = { name: "my-agent/agent.md", content: "ok" };
    const link = await tarGzOf([file, { name: "my-agent/copy", type: "link", linkname: "my-agent/agent.md" }]);
    await expectRejected(link, 'entry "my-agent/copy" is a hard link');
    const fifo = await tarGzOf([file, { name: "my-agent/pipe", type: "fifo" }]);
    await expectRejected(fifo, 'entry "my-agent/pipe" is a fifo');
    const device = await tarGzOf([file, { name: "my-agent/null", type: "character-device", devmajor: 1, devminor: 3 }]);
    await expectRejected(device, 'entry "my-agent/null" is a device');
  });

  it("rejects a device in a zip by its unix mode", async () => {
    const zip = await zipOf([{ name: "my-agent/null", content: "", mode: 0o020666 }]);
    await expectRejected(zip, 'entry "my-agent/null" is a device');
  });

  it("rejects duplicate paths, including ones that differ only before normalization", async () => {
    const tar = await tarGzOf([
      { name: "my-agent/agent.md", content: "one" },
      { name: "my-agent/./agent.md", content: "two" },
    ]);
    await expectRejected(tar, 'entry "my-agent/agent.md" appears more than once');
    const zip = await zipOf([
      { name: "my-agent/agent.md", content: "one" },
      { name: "my-agent/agent.md", content: "two" },
    ]);
    await expectRejected(zip, 'entry "my-agent/agent.md" appears more than once');
    const fileAndFolder = await tarGzOf([
      { name: "my-agent/tools", content: "a file" },
      { name: "my-agent/tools/forecast.ts", content: "a file in a folder of the same name" },
    ]);
    await expectRejected(fileAndFolder, 'entry "my-agent/tools" is both a file and a folder');
  });
});

describe("extractUpload: limits", () => {
  const files = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ name: `my-agent/${i}.md`, content: `file ${i}` }));

  it("rejects more than maxFiles entries", async () => {
    await expectRejected(await zipOf(files(4)), "archive has more than 3 files", { maxFiles: 3 });
    await expectRejected(await tarGzOf(files(4)), "archive has more than 3 files", { maxFiles: 3 });
    // The same archives pass at the limit, so it is the count that rejected them.
    const parent = await freshParent();
    const result = await extractUpload({
      archive: await zipOf(files(3)),
      destDir: path.join(parent, "agent"),
      limits: { maxFiles: 3 },
    });
    expect(result.files).toHaveLength(3);
  });

  it("rejects more than maxTotalBytes of inflated contents", async () => {
    // Random hex barely compresses, so only the byte limit can trip.
    const big = (i: number) => ({
      name: `my-agent/data-${i}.txt`,
      content: randomBytes(600).toString("hex"),
    });
    const entries = [big(1), big(2), big(3)];
    const limits = { maxTotalBytes: 2000 };
    await expectRejected(await zipOf(entries), "archive expands to more than 2000 bytes", limits);
    await expectRejected(await tarGzOf(entries), "archive expands to more than 2000 bytes", limits);
  });

  it("rejects a highly compressible file over the compression ratio", async () => {
    const bomb = [{ name: "my-agent/zeros.bin", content: Buffer.alloc(10 * 1024 * 1024) }];
    const message = "compression ratio over 100:1 (possible archive bomb)";
    await expectRejected(await zipOf(bomb), message);
    await expectRejected(await tarGzOf(bomb), message);
  });

  it("cuts off an oversized tar header before the tar parser buffers it", async () => {
    // A 100 KB name travels in a pax header: the cap on raw tar bytes trips before the
    // name ever reaches path validation.
    const archive = await tarGzOf([{ name: `my-agent/${"a".repeat(100_000)}`, content: "x" }]);
    await expectRejected(archive, "archive expands to more than 1000 bytes", {
      maxFiles: 2,
      maxTotalBytes: 1000,
    });
  });

  it("refuses an archive over maxArchiveBytes before reading it", async () => {
    const parent = await freshParent();
    const archive = await zipOf(wrappedZipEntries);
    const error = await extractUpload({
      archive,
      destDir: path.join(parent, "agent"),
      limits: { maxArchiveBytes: archive.length - 1 },
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect((error as AppError).code).toBe("payload_too_large");
    expect(await readdir(parent)).toEqual([]);
  });
});

describe("extractUpload: not an archive", () => {
  it("rejects a random buffer as an unsupported format", async () => {
    const archive = Buffer.concat([Buffer.from("hello "), randomBytes(2048)]);
    await expectRejected(archive, "unsupported archive format: expected a .zip or .tar.gz");
  });

  it("rejects a gzip of plain text, long or short", async () => {
    const message = "the gzip does not contain a valid tar archive";
    await expectRejected(gzipSync("just some notes\n".repeat(200)), message);
    await expectRejected(gzipSync("tiny"), message);
  });

  it("rejects a truncated zip and a truncated tar.gz", async () => {
    const zip = await zipOf(wrappedZipEntries);
    await expectRejected(zip.subarray(0, zip.length - 40), "corrupt or truncated zip archive");
    const tar = await tarGzOf(wrappedTarEntries);
    await expectRejected(tar.subarray(0, tar.length - 20), "corrupt or truncated gzip data");
  });

  it("rejects an archive without any file", async () => {
    const onlyFolder = await zipOf([{ name: "my-agent/", isDirectory: true }]);
    await expectRejected(onlyFolder, "archive contains no files");
    await expectRejected(await zipOf([]), "archive contains no files");
  });
});
