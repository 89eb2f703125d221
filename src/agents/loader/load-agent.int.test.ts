// The diagnostics (docs/agent-folders.md, "Validating") that only loading the code can find: one
// broken module per diagnostic, all in one folder, all reported by one load.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "./diagnostics";
import { loadAgentFolder, type LoadedAgent } from "./load-agent";
import { writeFiles } from "@/testing/folders";

const fixture: Record<string, string> = {
  "bot/instructions.md": "Root instructions.",
  "bot/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ hosting: { secretNames: ["KNOWN_TOKEN"] } });',
  "bot/hooks/plain.ts": "export default { events: {} };",
  "bot/hooks/silent.ts": 'import { defineHook } from "agentfold/hooks";\nexport default defineHook({ events: {} });',
  "bot/subagents/nameless/agent.ts": 'import { defineAgent } from "agentfold";\nexport default defineAgent({});',
  "bot/subagents/nameless/instructions.md": "Help.",
  "bot/schedules/both.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "0 * * * *", markdown: "x", run: async () => {} } as never);',
  "bot/schedules/neither.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "0 * * * *" } as never);',
  "bot/schedules/badcron.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "every day", markdown: "x" });',
  "bot/schedules/impossible.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "61 25 * * *", markdown: "x" });',
  "bot/schedules/impossible-run.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "61 25 * * *", run: async () => {} });',
  "bot/schedules/impossible-md.md": '---\ncron: "61 25 * * *"\n---\nSummarise.',
  "bot/mcp-connections/templated.ts":
    'import { defineConnection } from "agentfold/connections";\nexport default defineConnection({ url: "https://x.example/mcp", headers: { a: "Bearer ${KNOWN_TOKEN}", b: "${MISSING_TOKEN}" } });',
  "bot/host-connections/desk.ts":
    'import { defineConnection } from "agentfold/connections";\nexport default defineConnection({ agent: "other-desk" });',
  "bot/artifacts.ts":
    'import { defineArtifacts } from "agentfold/artifacts";\nexport default defineArtifacts({ kinds: { note: { description: "" } } });',
  "bot/extensions/ci.ts": 'throw new Error("ci extension: missing config `repo`");',
  "evals/both.eval.ts":
    'import { defineEval } from "agentfold/evals";\nexport default defineEval({ test: async () => {}, cases: [{ id: "a", test: async () => {} }] } as never);',
  "evals/dupes.eval.ts":
    'import { defineEval } from "agentfold/evals";\nexport default defineEval({ cases: [{ id: "a", test: async () => {} }, { id: "a", test: async () => {} }] });',
  "evals/nested.eval.ts":
    'import { defineEval } from "agentfold/evals";\nexport default defineEval({ cases: [{ id: "a/b", test: async () => {} }] });',
  "evals/list.eval.ts":
    'import { defineEval } from "agentfold/evals";\nexport default [defineEval({ test: async () => {} }), defineEval({ test: async () => {} })];',
};

const grokbotFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ runtime: "grokbot" } as never);',
};
const hostedFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/agent.ts":
    'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ runtime: "cloud", architecture: "v2",\n  local: { cwd: ".." }, persistent: true, hosting: { image: "node:20" }, cloud: { region: "us" } });',
};
// Imported by two tools with a `.js` specifier, as TypeScript projects write it.
const sharedFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/lib/shared.ts": [
    'import { defineSchedule } from "@cursor/bdk/schedules";',
    "",
    "export const nightly = defineSchedule({",
    '  markdown: "Summarise the day.",',
    '  cron: "every day",',
    "});",
  ].join("\n"),
  "bot/tools/a.ts":
    'import { defineTool } from "@cursor/bdk/tools";\nimport { nightly } from "../lib/shared.js";\nexport default defineTool({ description: String(nightly), execute: () => "a" });',
  "bot/tools/b.ts":
    'import { defineTool } from "@cursor/bdk/tools";\nimport { nightly } from "../lib/shared.js";\nexport default defineTool({ description: String(nightly), execute: () => "b" });',
};
const missingExportFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/tools/check.ts":
    'import { defineTool } from "@cursor/bdk/tools";\nimport { notAThing } from "@cursor/bdk/evals";\nexport default defineTool({ description: "d", execute: () => notAThing });',
};
// What Cursor-hosted or unsupported parts of a Cursor project get: one diagnostic each, on its line.
const cursorOnlyFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/tools/gate.ts": [
    'import { defineTool } from "@cursor/bdk/tools";',
    'import cloudAgents from "@cursor/bdk/extensions/cursor-cloud-agents";',
    'export default defineTool({ description: "d", execute: () => String(cloudAgents) });',
  ].join("\n"),
  "bot/tools/check.ts": [
    'import { defineTool } from "@cursor/bdk/tools";',
    "import {",
    "  notAThing,",
    '} from "@cursor/bdk/evals";',
    'export default defineTool({ description: "d", execute: () => String(notAThing) });',
  ].join("\n"),
  "bot/channels/hooks.ts": [
    'import { defineChannel } from "@cursor/bdk/channels";',
    "export default defineChannel({",
    "  routes: [],",
    "  async onStart() {},",
    "});",
  ].join("\n"),
  "bot/extensions/ci.ts": '// a third-party extension\'s mount\nexport default { namespace: "ci" };',
};
const modelFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/agent.ts": 'import { defineAgent } from "agentfold";\nexport default defineAgent({ model: "grok-4.5-fast" });',
};
const modelIdsFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/agent.ts": 'import { defineAgent } from "agentfold";\nexport default defineAgent({ model: "acme:large" });',
  "bot/subagents/bare/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ description: "d", model: "grok-4.5" });',
  "bot/subagents/bare/instructions.md": "Help.",
  "bot/subagents/local/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ description: "d", model: { id: "local:other" } });',
  "bot/subagents/local/instructions.md": "Help.",
};
const agentToolFixture: Record<string, string> = {
  "bot/instructions.md": "x",
  "bot/artifacts.ts":
    'import { defineArtifacts } from "agentfold/artifacts";\nexport default defineArtifacts({ agentTool: true });',
};

const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-load-"));
const loads = {} as Record<
  "main" | "grokbot" | "hosted" | "missingExport" | "cursorOnly" | "agentTool" | "model" | "modelIds" | "shared",
  LoadedAgent
>;
let lines: string[] = [];

async function load(name: string, files: Record<string, string>): Promise<LoadedAgent> {
  const dir = writeFiles(path.join(root, name), files);
  return loadAgentFolder({ folderDir: dir, outDir: path.join(root, `${name}-bundle`) });
}

beforeAll(async () => {
  loads.main = await load("main", fixture);
  loads.grokbot = await load("grokbot", grokbotFixture);
  loads.hosted = await load("hosted", hostedFixture);
  loads.missingExport = await load("missing-export", missingExportFixture);
  loads.cursorOnly = await load("cursor-only", cursorOnlyFixture);
  loads.agentTool = await load("agent-tool", agentToolFixture);
  loads.model = await load("model", modelFixture);
  loads.modelIds = await load("model-ids", modelIdsFixture);
  loads.shared = await load("shared", sharedFixture);
  lines = loads.main.diagnostics.map(formatDiagnostic);
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const expectLine = (pattern: RegExp) =>
  expect(
    lines.some((line) => pattern.test(line)),
    `${pattern}\n${lines.join("\n")}`,
  ).toBe(true);

describe('load-time diagnostics (docs/agent-folders.md, "Validating")', () => {
  it("a hook module's default export is not defineHook(...)", () =>
    expectLine(/^error: bot\/hooks\/plain.ts:1: the default export is not defineHook\(\.\.\.\)$/));
  it("a hook with an empty events map is skipped with a warning", () => {
    expectLine(/^warning: bot\/hooks\/silent.ts:2: the hook has an empty `events` map and is skipped$/);
    expect(loads.main.manifest?.hooks).toEqual([]);
  });
  it("a subagent has no description", () =>
    expectLine(/^error: bot\/subagents\/nameless\/agent.ts:2: subagent 'nameless' has no description/));
  it("an extension's config is missing or mistyped", () =>
    expectLine(/^error: bot\/extensions\/ci.ts:1: extension 'ci': ci extension: missing config `repo`$/));
  it("a peer agent sits in host-connections/, where nothing can use it", () =>
    expectLine(/^warning: bot\/host-connections\/desk.ts:2: a peer agent in host-connections\/ is never used/));
  it("a connection uses an undeclared ${NAME}", () => {
    expectLine(
      /^warning: bot\/mcp-connections\/templated.ts:2: uses \$\{MISSING_TOKEN\}, but MISSING_TOKEN is not a declared secret/,
    );
    expect(lines.some((line) => line.includes("KNOWN_TOKEN"))).toBe(false);
    // Both reach the sandbox once set: the declared one and the one a connection uses.
    expect(loads.main.manifest?.secretNames).toEqual(["KNOWN_TOKEN", "MISSING_TOKEN"]);
  });
  it("defineSchedule given both or neither of markdown / run", () => {
    expectLine(/^error: bot\/schedules\/both.ts:2: defineSchedule: .*exactly one of markdown or run \(got both\)/);
    expectLine(
      /^error: bot\/schedules\/neither.ts:2: defineSchedule: .*exactly one of markdown or run \(got neither\)/,
    );
  });
  it("a schedule's cron is checked", () => expectLine(/^error: bot\/schedules\/badcron.ts:2: defineSchedule: cron/));
  it("an impossible cron is one error naming the file and croner's reason, in every schedule form", () => {
    for (const file of ["impossible.ts", "impossible-run.ts", "impossible-md.md"]) {
      const mine = lines.filter((line) => line.includes(`bot/schedules/${file}`));
      expect(mine, file).toEqual([expect.stringMatching(/^error: .*cron.*Invalid value for minute: 61/)]);
    }
  });
  it("defineEval given both test and cases", () =>
    expectLine(/^error: evals\/both.eval.ts:2: defineEval: .*test or cases, not both/));
  it("duplicate case ids, and case ids that are not one path segment", () => {
    expectLine(/^error: evals\/dupes.eval.ts:2: defineEval: .*duplicate case id "a"/);
    expectLine(/^error: evals\/nested.eval.ts:2: defineEval: .*single path segment/);
  });
  it("array exports are indexed 0000, 0001 …", () => {
    expect(loads.main.manifest?.evals.filter((e) => e.file === "evals/list.eval.ts").map((e) => e.id)).toEqual([
      "list/0000",
      "list/0001",
    ]);
  });
  it("artifact kinds with empty descriptions", () =>
    expectLine(/^error: bot\/artifacts.ts:2: defineArtifacts: .*description/));
  it("a model id with a suffix is rejected in favour of params", () => {
    expect(loads.model.diagnostics.map(formatDiagnostic).join("\n")).toMatch(
      /^error: bot\/agent.ts:2: defineAgent: model.*params/m,
    );
  });
  it("a model id no turn could run on is an error; one without a provider says it runs on the default", () => {
    const found = loads.modelIds.diagnostics.map(formatDiagnostic);
    expect(found).toContainEqual(
      expect.stringMatching(/^error: bot\/agent.ts:2: model acme:large has an unknown provider "acme"/),
    );
    expect(found).toContainEqual(
      expect.stringMatching(
        /^error: bot\/subagents\/local\/agent.ts:2: model local:other does not exist; the only local model is local:scripted/,
      ),
    );
    expect(found).toContainEqual(
      expect.stringMatching(
        /^warning: bot\/subagents\/bare\/agent.ts:2: model "grok-4.5" is not a provider:model id and AGENTFOLD_MODEL_ALIASES has no alias for it: turns run on the parent agent's model/,
      ),
    );
  });
  it("runtime: 'grokbot' is rejected", () => {
    expect(loads.grokbot.diagnostics.map(formatDiagnostic).join("\n")).toMatch(
      /^error: bot\/agent.ts:2: defineAgent: runtime/m,
    );
  });
  it("Cursor-hosted options are accepted, each with a warning saying what happens here", () => {
    expect(loads.hosted.ok).toBe(true);
    expect(loads.hosted.diagnostics.map(formatDiagnostic)).toEqual([
      "warning: bot/agent.ts:2: defineAgent(): architecture is ignored on Agentfold: it picks Cursor's hosted agent loop; turns here run on the platform's own",
      "warning: bot/agent.ts:3: defineAgent(): local is ignored on Agentfold: it sets up Cursor's local harness; each session here has its own workspace",
      "warning: bot/agent.ts:3: defineAgent(): persistent is ignored on Agentfold: sandboxes here start on demand and stop after 5 idle minutes",
      "warning: bot/agent.ts:3: defineAgent(): hosting.image is ignored on Agentfold: agent code runs in the platform's sandbox, not in a container image",
      "warning: bot/agent.ts:3: defineAgent(): cloud is ignored on Agentfold: there is no Cursor cloud to bind to",
      'warning: bot/agent.ts:2: defineAgent(): runtime "cloud" runs on this instance\'s own workers here (there is no Cursor cloud to bind to)',
    ]);
  });
  it("a name the authoring package lacks is one error naming the public specifier and the author's file", () => {
    expect(loads.missingExport.diagnostics.map(formatDiagnostic)).toEqual([
      "error: bot/tools/check.ts:2: 'notAThing' is not exported by @cursor/bdk/evals on this platform (docs/compatibility.md lists what is)",
    ]);
  });
  it("Cursor-hosted imports, a multi-line import, onStart and an extension mount: one diagnostic each, on its line", () => {
    expect(loads.cursorOnly.diagnostics.map(formatDiagnostic).sort()).toEqual([
      "error: bot/tools/check.ts:3: 'notAThing' is not exported by @cursor/bdk/evals on this platform (docs/compatibility.md lists what is)",
      "error: bot/tools/gate.ts:2: '@cursor/bdk/extensions/cursor-cloud-agents' is Cursor-hosted only: it launches Cursor Cloud Agents on Cursor's backend; start work on this instance with ctx.send(...) instead, or call Cursor's Cloud Agents API from a tool with your own key in hosting.secretNames (docs/compatibility.md, \"Cursor-hosted only\")",
      "warning: bot/channels/hooks.ts:4: defineChannel(): onStart is ignored on Agentfold: a channel here is never started — its routes and events run in sandboxes started on demand; do start-up work in a schedule, or on a handler's first call",
      "warning: bot/extensions/ci.ts:2: extension mounts are ignored on Agentfold: nothing this file contributes (tools, skills, connections, hooks …) is mounted; copy what the agent needs into bot/ (docs/compatibility.md)",
    ]);
  });
  it("a shared module's error is one diagnostic, on its own file and the line of the field", () => {
    expect(loads.shared.diagnostics.map(formatDiagnostic)).toEqual([
      "error: bot/lib/shared.ts:5: defineSchedule: cron: expected 5 fields (minute hour day-of-month month day-of-week), got 2",
    ]);
  });
  it("agentTool: true with no declared kinds", () => {
    expect(loads.agentTool.diagnostics.map(formatDiagnostic).join("\n")).toMatch(
      /^error: bot\/artifacts.ts:2: defineArtifacts: .*agentTool/m,
    );
  });
  it("reports them all in one run", () => {
    expect(loads.main.ok).toBe(false);
    expect(loads.main.diagnostics.filter((d) => d.level === "error").length).toBeGreaterThanOrEqual(10);
  });
});
