// The compatibility suite (docs/compatibility.md): projects written as Cursor's SDK projects are
// validated as `agentfold validate` does it (the archive deploy uploads, extracted and loaded),
// deployed from that same archive, and run for one turn whose tool call succeeds, on the offline
// model (and on a local fake of xAI), with a real worker, Restate, Postgres and sandbox. Their
// npm dependency installs from the registry.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { packProject } from "@/agents/bundle/pack-project";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { loadPackedFolder } from "@/server/agents/load-packed-folder";
import { writeFiles } from "@/testing/folders";
import { startProviderFake, type ProviderFake } from "@/testing/provider-fakes";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { bdkProject, jevProject, julyProject, missingExportProject, type CompatProject } from "./fixtures";

let h: Harness;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-compat-"));
const cacheDir = path.join(scratch, "dependencies");
const routing = { defaultModel: "local:scripted", aliases: {} };

beforeAll(async () => {
  fs.mkdirSync(cacheDir);
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
}, 120_000);

afterAll(async () => {
  await h?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function writeProject(name: string, files: Record<string, string>, agentDir = "."): string {
  return path.join(writeFiles(path.join(scratch, name), files), agentDir);
}

/** A deploy's diagnostics: the harness refuses an invalid version, naming them. */
async function deployDiagnostics(name: string, dir: string): Promise<string[]> {
  const failed = await h.deployArchive(name, (await packProject(dir)).archive).then(
    () => "[]",
    (error: Error) => error.message.slice(error.message.indexOf("[")),
  );
  return (JSON.parse(failed) as Parameters<typeof formatDiagnostic>[0][]).map(formatDiagnostic);
}

async function runTurn(name: string, project: CompatProject, harness = h) {
  const dir = writeProject(name, project.files, project.agentDir);
  const validated = await loadPackedFolder({ dir, cacheDir, models: routing });
  expect(validated.diagnostics.filter((d) => d.level === "error").map(formatDiagnostic)).toEqual([]);
  const agent = await harness.deployArchive(name, (await packProject(dir)).archive);
  const started = await harness.start(agent, { message: project.message });
  const log = await harness.eventsUntil(started.sessionId, has("session.waiting"));
  return { validated, log, agent };
}

describe("a July project (agent/ root, no agent.ts)", () => {
  it("validates, deploys, and runs a turn whose tool keeps a note in ctx.host.kv", async () => {
    const { validated, log } = await runTurn("july", julyProject);
    expect(ofType(log, "action.result").map((e) => e.data)).toEqual([
      expect.objectContaining({ toolName: "remember", isError: false, output: julyProject.output }),
    ]);
    const manifest = validated.manifest!;
    expect(manifest.root).toBe("agent");
    // `prompt` as the description: the model reads it dedented.
    expect(manifest.tools[0]!.description).toBe(
      "Remember a note under a key.\nAnswers with what was stored there before, if anything.",
    );
    expect(manifest.schedules).toMatchObject([{ name: "morning", cron: "0 8 * * 1-5", mode: "markdown" }]);
    expect(manifest.evals).toMatchObject([{ id: "remember", description: "remembers a note" }]);
    expect(manifest.evalConfig).toBeUndefined();
  }, 120_000);
});

describe("a BDK project (bot/ root, package.json in the folder above)", () => {
  // Its knowledge file is read three ways: by the project path, and from the lib module's own
  // import.meta.url and __dirname (the output's policy, byUrl, byDirname).
  it("validates, deploys, and runs a turn whose tool uses its lib, npm dependency, shared code and knowledge", async () => {
    const { validated, log, agent } = await runTurn("bdk", bdkProject);
    expect(ofType(log, "action.result").map((e) => e.data)).toEqual([
      expect.objectContaining({ toolName: "open_ticket", isError: false, output: bdkProject.output }),
    ]);
    const manifest = validated.manifest!;
    expect(manifest.folder).toBe("agents/helpdesk");
    expect(manifest.tools).toMatchObject([{ name: "open_ticket", effect: "write", dryRunResult: "value" }]);
    expect(manifest.schedules).toMatchObject([{ name: "weekly", cron: "0 9 * * 1", mode: "markdown" }]);
    // A Cursor model id this instance has no alias for runs on the default, said in validate and
    // in the session's first event.
    const notes = [
      'model "grok-4.7" is not a provider:model id and AGENTFOLD_MODEL_ALIASES has no alias for it: turns run on the default model local:scripted (docs/models.md, "Cursor\'s model ids")',
      'model param effort="high" is ignored on local:scripted: it takes no params (docs/models.md, "Params")',
      'model param fast=true is ignored on local:scripted: it takes no params (docs/models.md, "Params")',
    ];
    expect(validated.diagnostics.filter((d) => d.file === "bot/agent.ts").map(formatDiagnostic)).toEqual(
      notes.map((note) => `warning: bot/agent.ts:5: ${note}`),
    );
    expect(ofType(log, "session.started")[0]!.data.notes).toEqual(notes);

    // In a dry run the write tool answers with its dryRunResult instead of running.
    const dry = await h.start(agent, { message: bdkProject.message, dryRun: true });
    const dryLog = await h.eventsUntil(dry.sessionId, has("session.waiting"));
    expect(ofType(dryLog, "action.result").map((e) => e.data.output)).toEqual([{ ticket: "T-DRY-RUN" }]);
  }, 180_000);
});

describe("a BDK project deciding with /extensions/jev", () => {
  it("validates, deploys, and runs a tool whose decide calls the agent's model for a choice, score and boolean", async () => {
    const { log } = await runTurn("jev", jevProject);
    expect(ofType(log, "action.result").map((e) => e.data)).toEqual([
      expect.objectContaining({ toolName: "gate_refund", isError: false, output: jevProject.output }),
    ]);
  }, 120_000);
});

describe("a Cursor model id with an alias", () => {
  let fake: ProviderFake;
  let xai: Harness;
  beforeAll(async () => {
    fake = await startProviderFake({
      provider: "xai",
      script: (_body, index) =>
        index === 0
          ? {
              toolCalls: [
                { id: "call_xai_1", name: "open_ticket", input: { subject: "Printer on fire", within: "2h" } },
              ],
            }
          : { text: ["Ticket opened."] },
    });
    xai = await startTurnHarness({
      databaseUrl: inject("databaseUrl"),
      models: { aliases: { "grok-4.7": "xai:grok-4" }, xaiApiKey: "xai-test", xaiBaseUrl: fake.baseUrl },
    });
  }, 120_000);
  afterAll(async () => {
    await xai?.close();
    await fake?.close();
  });

  it("runs on the aliased provider with the params it takes, and notes the ignored one", async () => {
    const dir = writeProject("bdk-xai", bdkProject.files, bdkProject.agentDir);
    const agent = await xai.deployArchive("bdk-xai", (await packProject(dir)).archive);
    const started = await xai.start(agent, { message: "Open a ticket: the printer is on fire." });
    const log = await xai.eventsUntil(started.sessionId, has("session.waiting"));

    expect(ofType(log, "action.result").map((e) => e.data)).toEqual([
      expect.objectContaining({ toolName: "open_ticket", isError: false, output: bdkProject.output }),
    ]);
    expect(fake.requests[0]!.body).toMatchObject({ model: "grok-4", reasoning_effort: "high" });
    expect(ofType(log, "session.started")[0]!.data.notes).toEqual([
      'model param fast=true is ignored on xai:grok-4: it takes effort (docs/models.md, "Params")',
    ]);
  }, 180_000);
});

describe("one file set for validate and deploy", () => {
  it("reports a name the package lacks once, on the author's file, naming the public specifier", async () => {
    const dir = writeProject("missing-export", missingExportProject);
    const expected = [
      "error: bot/lib/checks.ts:3: 'notAThing' is not exported by @cursor/bdk/evals on this platform (docs/compatibility.md lists what is)",
    ];
    const validated = await loadPackedFolder({ dir, cacheDir, models: routing });
    expect(validated.diagnostics.map(formatDiagnostic)).toEqual(expected);
    expect(await deployDiagnostics("missing-export", dir)).toEqual(expected);
  }, 60_000);

  it("refuses an import above the project in both, saying it is not uploaded", async () => {
    const root = writeFiles(path.join(scratch, "above"), {
      "shared/util.ts": "export const util = 1;\n",
      "agent/package.json": JSON.stringify({ name: "above", private: true }),
      "agent/bot/instructions.md": "x\n",
      "agent/bot/tools/use.ts":
        'import { defineTool } from "@cursor/bdk/tools";\nimport { util } from "../../../shared/util.js";\nexport default defineTool({ description: "d", execute: () => util });\n',
    });
    const dir = path.join(root, "agent");
    const expected = [
      "error: bot/tools/use.ts:2: cannot resolve '../../../shared/util.js' from bot/tools/use.ts: it is outside the project, and only the project is uploaded " +
        '(the agent folder, or the nearest folder above it with a package.json: docs/agent-folders.md, "What is uploaded")',
    ];
    const validated = await loadPackedFolder({ dir, cacheDir, models: routing });
    expect(validated.diagnostics.map(formatDiagnostic)).toEqual(expected);
    expect(await deployDiagnostics("above", dir)).toEqual(expected);
  }, 60_000);
});
