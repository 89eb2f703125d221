import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeEntryFile } from "./write-entry-file";

const createdDirs: string[] = [];

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "agentfold-write-"));
  createdDirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(createdDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

async function* endless(): AsyncGenerator<Uint8Array> {
  for (;;) yield Buffer.alloc(64 * 1024);
}

describe("writeEntryFile", () => {
  it("writes nested files and returns their size", async () => {
    const root = await freshDir();
    const size = await writeEntryFile({
      root,
      relativePath: "tools/forecast/index.ts",
      chunks: chunksOf("export ", "{};\n"),
      onChunk: () => undefined,
    });
    expect(size).toBe(11);
    expect(await readFile(path.join(root, "tools/forecast/index.ts"), "utf8")).toBe("export {};\n");
  });

  it("stops an endless entry at the first chunk over budget", async () => {
    const root = await freshDir();
    let counted = 0;
    const onChunk = (bytes: number) => {
      counted += bytes;
      if (counted > 256 * 1024) throw new Error("over budget");
    };
    await expect(writeEntryFile({ root, relativePath: "bomb.bin", chunks: endless(), onChunk })).rejects.toThrow(
      "over budget",
    );
    expect(counted).toBe(5 * 64 * 1024);
  });

  it("never writes through a symlink already in the root", async () => {
    const root = await freshDir();
    const outside = await freshDir();
    await writeFile(path.join(outside, "secret.md"), "untouched");
    await symlink(path.join(outside, "secret.md"), path.join(root, "agent.md"));
    await expect(
      writeEntryFile({
        root,
        relativePath: "agent.md",
        chunks: chunksOf("overwritten"),
        onChunk: () => undefined,
      }),
    ).rejects.toThrow('entry "agent.md" appears more than once in the archive');
    expect(await readFile(path.join(outside, "secret.md"), "utf8")).toBe("untouched");
    expect(await readdir(outside)).toEqual(["secret.md"]);
  });
});
