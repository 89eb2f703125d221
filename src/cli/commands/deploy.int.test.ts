// `agentfold deploy` of an agent with npm dependencies, as an author runs it: the real CLI in a child
// process on a copy of examples/invoice-pdf, into a stack's database (headless, `--team`). With
// node_modules installed, pdf-lib is bundled on this side and the server installs nothing; a turn's
// tool then writes a PDF. Without node_modules or a lockfile: one diagnostic.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dependencyBundleFolder } from "@/agents/bundle/dependency-bundle";
import { installDependencies } from "@/agents/bundle/install-dependencies";
import { projectRoot } from "@/cli/start/project";
import { poolOf } from "@/server/db";
import { extractUpload } from "@/server/agents/intake/extract-upload";
import { runCli } from "@/testing/cli-process";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-deploy-cli-"));
const example = path.join(projectRoot, "examples", "invoice-pdf");
let h: Harness;
let team = "";
let cliEnv: NodeJS.ProcessEnv = process.env;

const agentfold = (args: string[]) => runCli(args, { cwd: scratch, env: cliEnv });

/** The example as an author has it; `withNodeModules`: after `npm install` (the lockfile's packages,
 * installed as the server would, minus the Cursor packages, which are not public). */
async function authorCopy(name: string, options: { withNodeModules: boolean }): Promise<string> {
  const dir = path.join(scratch, name);
  fs.cpSync(example, dir, { recursive: true, filter: (from) => !from.includes(`${path.sep}node_modules`) });
  if (options.withNodeModules) {
    const cacheDir = fs.mkdtempSync(path.join(scratch, "npm-"));
    const installed = await installDependencies(dir, { cacheDir });
    expect(installed.diagnostics).toEqual([]);
    fs.cpSync(installed.nodeModules!, path.join(dir, "node_modules"), { recursive: true });
  }
  return dir;
}

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  team = (await h.db.team.findFirstOrThrow({ select: { slug: true } })).slug;
  const { restateIngress, restateAdmin } = h.ports();
  cliEnv = {
    ...process.env,
    AGENTFOLD_CONFIG_DIR: path.join(scratch, "config"),
    DATABASE_URL: poolOf(h.db).options.connectionString,
    AGENTFOLD_DATA_DIR: h.dataDir,
    RESTATE_INGRESS_URL: restateIngress,
    RESTATE_ADMIN_URL: restateAdmin,
  };
  for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN"]) delete cliEnv[name];
}, 120_000);

afterAll(async () => {
  await h?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("agentfold deploy of an agent with npm dependencies", () => {
  it("bundles pdf-lib from node_modules, the server installs nothing, and the tool writes a PDF", {
    timeout: 180_000,
  }, async () => {
    const dir = await authorCopy("Invoice PDF", { withNodeModules: true });
    const deployed = await agentfold(["deploy", "--dir", dir, "--team", team]);
    expect(deployed.code, deployed.stderr).toBe(0);
    // The slug is the folder's name as dev, run and call make it.
    expect(deployed.stdout.trim()).toBe("invoice-pdf version 1: ready (active)");
    const steps = deployed.stderr
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("  ")[0]);
    expect(steps).toEqual(["✓ bundling dependencies", "✓ packing", "✓ validating", "✓ bundling", "✓ activating"]);
    expect(deployed.stderr).toMatch(/✓ bundling dependencies {2}pdf-lib, \d+\.\d KiB/);

    // Nothing was installed on the server: its dependency cache is empty.
    expect(fs.readdirSync(path.join(h.dataDir, "dependencies"))).toEqual([]);
    const agent = await h.db.agent.findUniqueOrThrow({
      where: { slug: "invoice-pdf" },
      select: { id: true, slug: true, teamId: true, activeVersionId: true },
    });
    const version = await h.db.agentVersion.findUniqueOrThrow({
      where: { id: agent.activeVersionId! },
      select: { archivePath: true },
    });
    const stored = path.join(scratch, "stored");
    const { files } = await extractUpload({
      archive: fs.readFileSync(path.join(h.dataDir, version.archivePath)),
      destDir: stored,
    });
    expect(files.map((file) => file.path)).toContain(`${dependencyBundleFolder}/node_modules/pdf-lib/index.js`);
    expect(files.map((file) => file.path)).not.toContain("node_modules/pdf-lib/package.json");

    const started = await h.start(agent, { message: '[call make_invoice {"customer":"Ada"}]' });
    const log = await h.eventsUntil(started.sessionId, has("session.waiting"));
    const result = ofType(log, "action.result")[0]!.data;
    expect(result).toMatchObject({ isError: false, output: { header: "%PDF-" } });
    expect((result.output as { bytes: number }).bytes).toBeGreaterThan(500);

    // validate checks the same upload: bundled here, nothing to install.
    const validated = await agentfold(["validate", "--dir", dir]);
    expect(validated.code, validated.stdout).toBe(0);
    expect(validated.stdout).toMatch(/: 0 errors, 0 warnings\n$/);
  });

  it("without node_modules and without a lockfile, says so once", { timeout: 120_000 }, async () => {
    const dir = await authorCopy("no-lock", { withNodeModules: false });
    fs.rmSync(path.join(dir, "package-lock.json"));
    const deployed = await agentfold(["deploy", "--dir", dir, "--team", team]);
    expect(deployed.code).toBe(1);
    expect(deployed.stderr).not.toContain("bundling dependencies");
    const diagnostics = deployed.stderr.split("\n").filter((line) => /^\s+(error|warning):/.test(line));
    expect(diagnostics).toEqual([
      "  error: package.json: package.json lists dependencies (pdf-lib) but the upload has no package-lock.json: " +
        "run `npm install` and upload package-lock.json with it",
    ]);
    expect(deployed.stdout.trim()).toBe("no-lock version 1: invalid");
  });
});

describe("agentfold deploy's slug", () => {
  it("refuses a folder whose name makes no slug instead of deploying it as a shared default", async () => {
    const dir = path.join(scratch, "api");
    fs.mkdirSync(path.join(dir, "bot"), { recursive: true });
    fs.writeFileSync(path.join(dir, "bot", "instructions.md"), "You help.");
    const deployed = await agentfold(["deploy", "--dir", dir, "--team", team]);
    expect(deployed.code).toBe(2);
    expect(deployed.stderr).toContain("the folder's name 'api' makes no agent slug: pass --slug <slug>");
    expect(await h.db.agent.count({ where: { slug: "agent" } })).toBe(0);
  });
});
