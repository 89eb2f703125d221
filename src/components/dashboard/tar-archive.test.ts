import { Readable } from "node:stream";
import { extract } from "tar-stream";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isUploadable, tarGzOf, tarOf } from "./tar-archive";

async function entriesOf(tar: Uint8Array): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const reader = extract();
  reader.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk) => void chunks.push(chunk as Buffer));
    stream.on("end", () => ((out[header.name] = Buffer.concat(chunks).toString("utf8")), next()));
  });
  const done = new Promise<void>(
    (resolve, reject) => (reader.on("finish", () => resolve()), reader.on("error", reject)),
  );
  Readable.from([Buffer.from(tar)]).pipe(reader);
  await done;
  return out;
}

const text = (value: string) => new TextEncoder().encode(value);

describe("the browser's tar packer", () => {
  it("writes archives a standard reader extracts, long paths included", async () => {
    const deep = `bot/${"nested/".repeat(20)}tool.ts`;
    const entries = await entriesOf(
      tarOf([
        { path: "bot/agent.ts", bytes: text("export default {}\n") },
        { path: "bot/instructions.md", bytes: text("x".repeat(1500)) },
        { path: deep, bytes: text("deep") },
        { path: "empty.txt", bytes: new Uint8Array() },
      ]),
    );
    expect(entries["bot/agent.ts"]).toBe("export default {}\n");
    expect(entries["bot/instructions.md"]).toHaveLength(1500);
    expect(entries[deep]).toBe("deep");
    expect(entries["empty.txt"]).toBe("");
  });

  it("gzips the archive", async () => {
    const blob = await tarGzOf([{ path: "a.md", bytes: text("hello") }]);
    const entries = await entriesOf(gunzipSync(Buffer.from(await blob.arrayBuffer())));
    expect(entries).toEqual({ "a.md": "hello" });
  });

  it("leaves dependencies and VCS data out", () => {
    expect(isUploadable("bot/agent.ts")).toBe(true);
    expect(isUploadable("node_modules/x/index.js")).toBe(false);
    expect(isUploadable("bot/.git/HEAD")).toBe(false);
  });
});
