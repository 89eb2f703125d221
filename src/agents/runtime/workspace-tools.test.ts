import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceToolNames, workspaceTools } from "./workspace-tools";
import { globMaxResults } from "./workspace-tools/glob";
import { grepMaxMatches } from "./workspace-tools/grep";
import { readMaxLineChars, readMaxLines } from "./workspace-tools/read";

let workspace: string;
let outside: string;

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-ws-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-outside-"));
  fs.writeFileSync(path.join(outside, "secret.txt"), "top secret\n");
});

afterEach(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

function put(relative: string, content: string | Buffer): void {
  const file = path.join(workspace, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function contents(relative: string): string {
  return fs.readFileSync(path.join(workspace, relative), "utf8");
}

async function run(name: string, input: unknown, workspaceDir = workspace): Promise<unknown> {
  const tool = workspaceTools({ workspaceDir }).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.execute(input);
}

describe("workspaceTools", () => {
  it("offers all six tools without an allowlist, with their effects and JSON Schemas", () => {
    const tools = workspaceTools({ workspaceDir: workspace });
    expect(tools.map((tool) => [tool.name, tool.effect])).toEqual([
      ["read", "read"],
      ["ls", "read"],
      ["grep", "read"],
      ["glob", "read"],
      ["write", "write"],
      ["edit", "write"],
    ]);
    expect(tools.map((tool) => tool.name)).toEqual([...workspaceToolNames]);
    const edit = tools.find((tool) => tool.name === "edit")!;
    expect(edit.inputSchema).toMatchObject({
      type: "object",
      required: ["path", "oldText", "newText"],
      additionalProperties: false,
      properties: { replaceAll: { type: "boolean" } },
    });
    for (const tool of tools) expect(tool.description.length).toBeGreaterThan(20);
  });

  it("keeps only the allowlisted tools, ignoring names that are not workspace tools", () => {
    const names = (allowlist: string[]) =>
      workspaceTools({ workspaceDir: workspace, allowlist }).map((tool) => tool.name);
    expect(names(["read", "grep", "glob", "ls", "mcp"])).toEqual(["read", "ls", "grep", "glob"]);
    expect(names(["mcp"])).toEqual([]);
    expect(names(["edit", "bash"])).toEqual(["edit"]);
  });

  it("refuses invalid input with a message naming the field", async () => {
    await expect(run("read", {})).rejects.toThrow(/invalid tool input: path: .*expected string/);
    await expect(run("read", { path: "a.txt", limit: 0 })).rejects.toThrow(/limit: /);
    await expect(run("read", { file_path: "a.txt", path: "a.txt" })).rejects.toThrow(/file_path/);
    await expect(run("edit", { path: "a.txt", oldText: "", newText: "x" })).rejects.toThrow(/oldText: /);
    await expect(run("write", "a.txt")).rejects.toThrow(/invalid tool input/);
  });

  it("works when the workspace directory is itself reached through a symlink", async () => {
    const alias = path.join(outside, "alias");
    fs.symlinkSync(workspace, alias);
    put("notes.md", "hello\n");
    expect(await run("read", { path: "notes.md" }, alias)).toBe("     1\thello");
  });
});

describe("read", () => {
  it("returns the file with cat -n style line numbers", async () => {
    put("src/a.txt", "alpha\nbeta\n\ngamma\n");
    expect(await run("read", { path: "src/a.txt" })).toBe("     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma");
  });

  it("pages with offset and limit and says where to continue", async () => {
    put("a.txt", "one\ntwo\nthree\nfour\n");
    const result = await run("read", { path: "a.txt", offset: 2, limit: 2 });
    expect(result).toBe(
      "     2\ttwo\n     3\tthree\n\n[truncated: showing lines 2-3; call read with offset 4 for more]",
    );
    expect(await run("read", { path: "a.txt", offset: 3 })).toBe("     3\tthree\n     4\tfour");
  });

  it("caps a long file at the line limit with a note", async () => {
    put("long.txt", Array.from({ length: readMaxLines + 5 }, (_, i) => `line ${i + 1}`).join("\n"));
    const result = String(await run("read", { path: "long.txt" }));
    expect(result).toContain(`  ${readMaxLines}\tline ${readMaxLines}\n`);
    expect(result).not.toContain(`line ${readMaxLines + 1}\n`);
    expect(result).toMatch(new RegExp(`call read with offset ${readMaxLines + 1} for more\\]$`));
  });

  it("caps output by size and cuts very long lines, saying so", async () => {
    put("wide.txt", Array.from({ length: 300 }, () => "x".repeat(readMaxLineChars + 100)).join("\n"));
    const result = String(await run("read", { path: "wide.txt" }));
    expect(Buffer.byteLength(result)).toBeLessThanOrEqual(256 * 1024 + 300);
    expect(result).toContain("… [line cut]");
    expect(result).toContain(`[lines longer than ${readMaxLineChars} characters were cut]`);
    expect(result).toMatch(/\[truncated: showing lines 1-\d+; call read with offset \d+ for more\]$/);
    expect(result).not.toContain("x".repeat(readMaxLineChars + 1));
  });

  it("describes an empty file and an offset past the end", async () => {
    put("empty.txt", "");
    put("short.txt", "a\nb\n");
    expect(await run("read", { path: "empty.txt" })).toBe("(empty.txt is empty)");
    expect(await run("read", { path: "short.txt", offset: 9 })).toBe(
      "(short.txt has 2 lines; offset 9 is past the end)",
    );
  });

  it("refuses binary files, directories and missing files without showing host paths", async () => {
    put("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    put("dir/file.txt", "x");
    await expect(run("read", { path: "image.png" })).rejects.toThrow('"image.png" is a binary file');
    await expect(run("read", { path: "dir" })).rejects.toThrow('"dir" is a directory; use ls');
    const missing = run("read", { path: "nope/missing.txt" });
    await expect(missing).rejects.toThrow('"nope/missing.txt" does not exist');
    await expect(missing).rejects.not.toThrow(workspace);
  });
});

describe("ls", () => {
  it("lists entries sorted, directories with a trailing slash and symlinks with @", async () => {
    put("b.txt", "");
    put("a/inner.txt", "");
    put(".hidden", "");
    put("C.md", "");
    fs.symlinkSync("b.txt", path.join(workspace, "link"));
    expect(await run("ls", {})).toBe([".hidden", "C.md", "a/", "b.txt", "link@"].join("\n"));
    expect(await run("ls", { path: "a" })).toBe("inner.txt");
  });

  it("describes an empty directory and refuses a file", async () => {
    fs.mkdirSync(path.join(workspace, "empty"));
    put("file.txt", "x");
    expect(await run("ls", { path: "empty" })).toBe("(empty is empty)");
    await expect(run("ls", { path: "file.txt" })).rejects.toThrow('"file.txt" is a file, not a directory');
  });
});

describe("grep", () => {
  beforeEach(() => {
    put("src/app.ts", "const Answer = 42;\nexport default Answer;\n");
    put("src/deep/util.ts", "// answer helper\n");
    put("README.md", "The answer is here\n");
    put("node_modules/pkg/index.ts", "answer\n");
    put(".git/config", "answer\n");
    put("blob.bin", Buffer.concat([Buffer.from("answer"), Buffer.from([0, 1, 2])]));
  });

  it("answers file:line: text for each match, skipping binaries, node_modules and .git", async () => {
    expect(await run("grep", { pattern: "answer" })).toBe(
      "README.md:1: The answer is here\nsrc/deep/util.ts:1: // answer helper",
    );
  });

  it("matches case-insensitively and filters by glob", async () => {
    expect(await run("grep", { pattern: "ANSWER", ignoreCase: true, glob: "*.ts" })).toBe(
      [
        "src/app.ts:1: const Answer = 42;",
        "src/app.ts:2: export default Answer;",
        "src/deep/util.ts:1: // answer helper",
      ].join("\n"),
    );
    expect(await run("grep", { pattern: "answer", ignoreCase: true, glob: "deep/*.ts", path: "src" })).toBe(
      "src/deep/util.ts:1: // answer helper",
    );
  });

  it("searches a file or skipped directory named as the path", async () => {
    expect(await run("grep", { pattern: "^export", path: "src/app.ts" })).toBe("src/app.ts:2: export default Answer;");
    expect(await run("grep", { pattern: "answer", path: "node_modules" })).toBe("node_modules/pkg/index.ts:1: answer");
  });

  it("says when nothing matches and when the regular expression is invalid", async () => {
    expect(await run("grep", { pattern: "zebra" })).toBe("no matches");
    await expect(run("grep", { pattern: "(unclosed" })).rejects.toThrow(/invalid regular expression \/\(unclosed\//);
  });

  it("caps the matches with a note", async () => {
    put("many.txt", Array.from({ length: grepMaxMatches + 20 }, (_, i) => `hit ${i + 1}`).join("\n"));
    const lines = String(await run("grep", { pattern: "^hit", path: "many.txt" })).split("\n");
    expect(lines).toHaveLength(grepMaxMatches + 2);
    expect(lines[grepMaxMatches - 1]).toBe(`many.txt:${grepMaxMatches}: hit ${grepMaxMatches}`);
    expect(lines.at(-1)).toMatch(/^\[truncated: showing the first 500 matches/);
  });
});

describe("glob", () => {
  beforeEach(() => {
    put("index.ts", "");
    put("src/a.ts", "");
    put("src/b.tsx", "");
    put("src/deep/c.ts", "");
    put("docs/guide.md", "");
    put("node_modules/pkg/index.ts", "");
  });

  it("matches ** across directories, including none, and skips node_modules", async () => {
    expect(await run("glob", { pattern: "**/*.ts" })).toBe(["index.ts", "src/a.ts", "src/deep/c.ts"].join("\n"));
  });

  it("keeps * within a name and supports braces and a starting path", async () => {
    expect(await run("glob", { pattern: "*.ts" })).toBe("index.ts");
    expect(await run("glob", { pattern: "*.{ts,tsx}", path: "src" })).toBe("src/a.ts\nsrc/b.tsx");
    expect(await run("glob", { pattern: "**/?.ts", path: "src" })).toBe("src/a.ts\nsrc/deep/c.ts");
  });

  it("says when nothing matches and refuses patterns that leave the workspace", async () => {
    expect(await run("glob", { pattern: "**/*.py" })).toBe("no files match");
    await expect(run("glob", { pattern: "../*" })).rejects.toThrow(
      'glob pattern "../*" must stay inside the workspace',
    );
    await expect(run("glob", { pattern: "/etc/*" })).rejects.toThrow(
      'glob pattern "/etc/*" must stay inside the workspace',
    );
  });

  it("caps the results with a note", async () => {
    for (let i = 0; i <= globMaxResults; i++) put(`many/f${String(i).padStart(4, "0")}.txt`, "");
    const lines = String(await run("glob", { pattern: "many/*.txt" })).split("\n");
    expect(lines).toHaveLength(globMaxResults + 2);
    expect(lines[0]).toBe("many/f0000.txt");
    expect(lines.at(-1)).toMatch(/^\[truncated: showing the first 1000 files/);
  });
});

describe("write", () => {
  it("creates parent directories and reports the bytes written", async () => {
    expect(await run("write", { path: "new/dir/file.txt", content: "héllo" })).toBe(
      "wrote 6 bytes to new/dir/file.txt",
    );
    expect(contents("new/dir/file.txt")).toBe("héllo");
    await run("write", { path: "new/dir/file.txt", content: "replaced" });
    expect(contents("new/dir/file.txt")).toBe("replaced");
  });

  it("refuses to write over a directory", async () => {
    put("dir/x.txt", "");
    await expect(run("write", { path: "dir", content: "x" })).rejects.toThrow('"dir" is a directory');
  });
});

describe("edit", () => {
  it("replaces exactly one occurrence, taking newText literally", async () => {
    put("a.ts", "const a = 1;\nconst b = 2;\n");
    expect(await run("edit", { path: "a.ts", oldText: "const b = 2;", newText: "const b = '$&';" })).toBe(
      "replaced 1 occurrence in a.ts",
    );
    expect(contents("a.ts")).toBe("const a = 1;\nconst b = '$&';\n");
  });

  it("refuses text that is not found, leaving the file alone", async () => {
    put("a.ts", "const a = 1;\n");
    await expect(run("edit", { path: "a.ts", oldText: "const  a", newText: "x" })).rejects.toThrow(
      "oldText was not found in a.ts",
    );
    expect(contents("a.ts")).toBe("const a = 1;\n");
  });

  it("refuses ambiguous text unless replaceAll is set", async () => {
    put("a.ts", "x = 1;\nx = 1;\nx = 1;\n");
    await expect(run("edit", { path: "a.ts", oldText: "x = 1;", newText: "y" })).rejects.toThrow(
      "oldText occurs 3 times in a.ts; include more surrounding text to make it unique, or set replaceAll: true",
    );
    expect(contents("a.ts")).toBe("x = 1;\nx = 1;\nx = 1;\n");
    expect(await run("edit", { path: "a.ts", oldText: "x = 1;", newText: "y = 2;", replaceAll: true })).toBe(
      "replaced 3 occurrences in a.ts",
    );
    expect(contents("a.ts")).toBe("y = 2;\ny = 2;\ny = 2;\n");
  });

  it("refuses binary and missing files", async () => {
    put("blob.bin", Buffer.from([1, 0, 2]));
    await expect(run("edit", { path: "blob.bin", oldText: "a", newText: "b" })).rejects.toThrow("binary file");
    await expect(run("edit", { path: "missing.ts", oldText: "a", newText: "b" })).rejects.toThrow(
      '"missing.ts" does not exist',
    );
  });
});

describe("confinement", () => {
  const pathInputs: [string, (p: string) => unknown][] = [
    ["read", (p) => ({ path: p })],
    ["ls", (p) => ({ path: p })],
    ["grep", (p) => ({ pattern: "x", path: p })],
    ["glob", (p) => ({ pattern: "**", path: p })],
    ["write", (p) => ({ path: p, content: "pwned" })],
    ["edit", (p) => ({ path: p, oldText: "top secret", newText: "pwned" })],
  ];

  it.each(pathInputs)("%s refuses absolute paths", async (name, input) => {
    await expect(run(name, input("/etc/passwd"))).rejects.toThrow('path "/etc/passwd" is absolute');
    await expect(run(name, input(path.join(outside, "secret.txt")))).rejects.toThrow(/is absolute/);
  });

  it.each(pathInputs)("%s refuses ../ escapes", async (name, input) => {
    const sibling = `../${path.basename(outside)}/secret.txt`;
    await expect(run(name, input(sibling))).rejects.toThrow(`path "${sibling}" is outside the workspace`);
    await expect(run(name, input("a/../../x"))).rejects.toThrow('path "a/../../x" is outside the workspace');
    await expect(run(name, input(".."))).rejects.toThrow('path ".." is outside the workspace');
  });

  it.each(pathInputs)("%s refuses a symlinked directory pointing at /etc", async (name, input) => {
    fs.symlinkSync("/etc", path.join(workspace, "etc"));
    await expect(run(name, input("etc"))).rejects.toThrow(
      'path "etc" resolves through a symlink to outside the workspace',
    );
    await expect(run(name, input("etc/passwd"))).rejects.toThrow('path "etc/passwd" resolves through a symlink');
    await expect(run(name, input("etc/new/file"))).rejects.toThrow('path "etc/new/file" resolves through a symlink');
  });

  it.each(pathInputs)("%s refuses a symlinked file pointing outside and leaves it untouched", async (name, input) => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "secret.txt"));
    await expect(run(name, input("secret.txt"))).rejects.toThrow('path "secret.txt" resolves through a symlink');
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });

  it("refuses writing through a dangling symlink that would create a file outside", async () => {
    const target = path.join(outside, "created.txt");
    fs.symlinkSync(target, path.join(workspace, "dangling"));
    await expect(run("write", { path: "dangling", content: "x" })).rejects.toThrow(
      'path "dangling" goes through a broken symlink',
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it("keeps files behind outward symlinks out of grep and glob over the workspace", async () => {
    fs.symlinkSync(outside, path.join(workspace, "out"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "leak.txt"));
    put("inside.txt", "top secret too\n");
    fs.symlinkSync("inside.txt", path.join(workspace, "alias.txt"));
    expect(await run("grep", { pattern: "secret" })).toBe("alias.txt:1: top secret too\ninside.txt:1: top secret too");
    expect(await run("glob", { pattern: "**" })).toBe("alias.txt\ninside.txt");
  });

  it("allows names that merely start with two dots", async () => {
    expect(await run("write", { path: "..notes", content: "ok" })).toBe("wrote 2 bytes to ..notes");
    expect(await run("read", { path: "./a/../..notes" })).toBe("     1\tok");
  });
});
