// An agent's npm dependencies (docs/agent-folders.md, "npm dependencies"): an upload brings its
// package.json and lockfile, the platform installs the lockfile from the registry (once per
// lockfile), bundles the agent with it, and the tool that needs the package runs in a turn.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { readFiles } from "@/testing/folders";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
const example = () => readFiles(path.join(projectRoot, "examples", "invoice-pdf"));

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe("npm dependencies of an upload", () => {
  it("installs the lockfile (without the Cursor packages) and the tool that imports pdf-lib writes a PDF", async () => {
    const agent = await h.deploy("invoices", example());
    const started = await h.start(agent, { message: '[call make_invoice {"customer":"Ada"}]' });
    const log = await h.eventsUntil(started.sessionId, has("session.waiting"));
    const result = ofType(log, "action.result")[0]!.data;
    expect(result).toMatchObject({ isError: false, output: { header: "%PDF-" } });
    expect((result.output as { bytes: number }).bytes).toBeGreaterThan(500);
    const cache = path.join(h.dataDir, "dependencies");
    const trees = fs.readdirSync(cache).filter((name) => !name.startsWith("."));
    expect(trees).toHaveLength(1);
    const installed = fs.readdirSync(path.join(cache, trees[0]!, "node_modules"));
    expect(installed).toContain("pdf-lib");
    expect(installed).not.toContain("@cursor");
    // The same lockfile again: the installed tree is reused.
    await h.deploy("invoices-too", example());
    expect(fs.readdirSync(cache).filter((name) => !name.startsWith("."))).toEqual(trees);
  }, 180_000);

  it("without a lockfile, says so once: the dependencies it lists and what to upload", async () => {
    const { "package-lock.json": _lock, ...withoutLock } = example();
    const failed = await h.deploy("no-lock", withoutLock).then(
      () => undefined,
      (error: Error) => error.message,
    );
    const diagnostics = JSON.parse(failed!.slice(failed!.indexOf("["))) as { message: string }[];
    expect(diagnostics).toEqual([
      expect.objectContaining({
        level: "error",
        message:
          "package.json lists dependencies (pdf-lib) but the upload has no package-lock.json: run `npm install` and upload package-lock.json with it",
      }),
    ]);
  });
});
