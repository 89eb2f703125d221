// Projects written the way public @cursor/july and @cursor/bdk projects are (our own code, one
// pattern each where it shows): the compatibility suite (compat.int.test.ts) validates, deploys
// and runs a turn of each. Kept as file maps, written to a temporary folder by the test, so their
// code is not type-checked or collected as this repository's own tests.

export type CompatProject = {
  /** The project as files; `agentDir` is the folder `agentfold validate|deploy --dir` is given. */
  files: Record<string, string>;
  agentDir: string;
  /** A message that makes the offline model call the fixture's tool, and what the tool returns. */
  message: string;
  tool: string;
  output: unknown;
};

const lines = (...text: string[]) => `${text.join("\n")}\n`;

/** July: an `agent/` root, no agent.ts, evals without evals.config.ts, a markdown schedule,
 * `defineTool` and `prompt` from the package root, `prompt` as the description, `ctx.host.kv`. */
export const julyProject: CompatProject = {
  agentDir: ".",
  tool: "remember",
  message: '[call remember {"key":"greeting","note":"hello"}]',
  output: { key: "greeting", before: null, stored: "hello" },
  files: {
    "package.json": JSON.stringify({
      name: "july-notes",
      private: true,
      type: "module",
      dependencies: { "@cursor/july": "0.1.9" },
    }),
    "agent/instructions.md": "You keep short notes for the team. Use the remember tool.\n",
    "agent/tools/remember.ts": lines(
      'import { defineTool, prompt } from "@cursor/july";',
      'import { z } from "zod";',
      "",
      "export default defineTool({",
      "  description: prompt`",
      "    Remember a note under a key.",
      "    Answers with what was stored there before, if anything.",
      "  `,",
      "  inputSchema: z.object({ key: z.string(), note: z.string() }),",
      "  execute: async ({ key, note }, ctx) => {",
      "    const before = await ctx.host.kv.get(key);",
      "    await ctx.host.kv.put(key, note);",
      "    return { key, before: before ?? null, stored: note };",
      "  },",
      "});",
    ),
    "agent/schedules/morning.md": lines("---", 'cron: "0 8 * * 1-5"', "---", "List yesterday's notes."),
    "evals/remember.eval.ts": lines(
      'import { defineEval, includes } from "@cursor/july/evals";',
      "",
      "export default defineEval({",
      '  description: "remembers a note",',
      "  test: async (t) => {",
      '    await t.send(\'[call remember {"key":"k","note":"n"}]\');',
      '    t.calledTool("remember");',
      '    t.check(t.reply, includes("remember"));',
      "  },",
      "});",
    ),
  },
};

// Pinned as npm writes it; the Cursor package is the platform's, never installed (its entry is a
// placeholder, as in projects whose lockfile came from Cursor's registry).
const helpdeskLock = {
  name: "helpdesk-project",
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "helpdesk-project", dependencies: { "@cursor/bdk": "0.2.3", ms: "2.1.3" } },
    "node_modules/@cursor/bdk": {
      version: "0.2.3",
      resolved: "https://registry.cursor.example/@cursor/bdk/-/bdk-0.2.3.tgz",
      integrity: "sha512-AAAA",
      license: "UNLICENSED",
    },
    "node_modules/ms": {
      version: "2.1.3",
      integrity: "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==",
      license: "MIT",
    },
  },
};

/** BDK: a `bot/` root in `agents/helpdesk/`, its package.json (with an npm dependency and its
 * lockfile) in the project folder above, code shared from above the agent folder, a `lib/` with
 * `.js` specifiers for `.ts` files and tests beside them, a schedule in `.ts`, `dryRunResult`,
 * a Cursor model id with params, and a knowledge file the tool reads by its project path, by its
 * lib's `import.meta.url` and by its lib's `__dirname`. */
export const bdkProject: CompatProject = {
  agentDir: "agents/helpdesk",
  tool: "open_ticket",
  message: '[call open_ticket {"subject":"Printer on fire","within":"2h"}]',
  output: {
    ticket: "T-PRINTER-ON-FIRE",
    dueInMs: 7_200_000,
    greeting: "Hello from the helpdesk",
    policy: "Answer within one working day.",
    byUrl: "Answer within one working day.",
    byDirname: "Answer within one working day.",
  },
  files: {
    "package.json": JSON.stringify({
      name: "helpdesk-project",
      private: true,
      type: "module",
      dependencies: { "@cursor/bdk": "0.2.3", ms: "2.1.3" },
    }),
    "package-lock.json": JSON.stringify(helpdeskLock, null, 2),
    "knowledge/policy.md": "Answer within one working day.\n",
    "shared/greeting.ts": lines(
      "export function greeting(team: string): string {",
      "  return `Hello from the ${team}`;",
      "}",
    ),
    "agents/helpdesk/bot/agent.ts": lines(
      'import { defineAgent } from "@cursor/bdk";',
      "",
      "export default defineAgent({",
      '  description: "Opens helpdesk tickets",',
      "  model: {",
      '    id: "grok-4.7",',
      "    params: [",
      '      { id: "effort", value: "high" },',
      '      { id: "fast", value: true },',
      "    ],",
      "  },",
      "});",
    ),
    "agents/helpdesk/bot/instructions.md": "You open helpdesk tickets with the open_ticket tool.\n",
    "agents/helpdesk/bot/lib/ticket-id.ts": lines(
      "export function ticketId(subject: string): string {",
      '  return `T-${subject.toUpperCase().replace(/[^A-Z0-9]+/g, "-")}`;',
      "}",
    ),
    // Files found from the module's own path, as on the author's machine (the lib's own, not its importer's).
    "agents/helpdesk/bot/lib/knowledge.ts": lines(
      'import fs from "node:fs";',
      'import path from "node:path";',
      "",
      "export const byUrl = () =>",
      '  fs.readFileSync(new URL("../../../../knowledge/policy.md", import.meta.url), "utf8").trim();',
      "export const byDirname = () =>",
      '  fs.readFileSync(path.join(__dirname, "../../../../knowledge/policy.md"), "utf8").trim();',
    ),
    "agents/helpdesk/bot/lib/ticket-id.test.ts": lines(
      'import { expect, it } from "vitest";',
      'import { ticketId } from "./ticket-id.js";',
      "",
      'it("makes an id of the subject", () => {',
      '  expect(ticketId("Printer on fire")).toBe("T-PRINTER-ON-FIRE");',
      "});",
    ),
    "agents/helpdesk/bot/tools/open_ticket.ts": lines(
      'import fs from "node:fs";',
      'import ms from "ms";',
      'import { defineTool } from "@cursor/bdk/tools";',
      'import { z } from "zod";',
      'import { greeting } from "../../../../shared/greeting.js";',
      'import { byDirname, byUrl } from "../lib/knowledge.js";',
      'import { ticketId } from "../lib/ticket-id.js";',
      "",
      "// Read as the module loads: the project is the working directory then too.",
      'const policy = fs.readFileSync("knowledge/policy.md", "utf8").trim();',
      "",
      "export default defineTool({",
      '  description: "Open a helpdesk ticket",',
      '  effect: "write",',
      "  inputSchema: z.object({ subject: z.string(), within: z.string() }),",
      '  dryRunResult: { ticket: "T-DRY-RUN" },',
      "  execute: async ({ subject, within }) => ({",
      "    ticket: ticketId(subject),",
      "    dueInMs: ms(within),",
      '    greeting: greeting("helpdesk"),',
      "    policy,",
      "    byUrl: byUrl(),",
      "    byDirname: byDirname(),",
      "  }),",
      "});",
    ),
    "agents/helpdesk/bot/schedules/weekly.ts": lines(
      'import { defineSchedule } from "@cursor/bdk/schedules";',
      "",
      "export default defineSchedule({",
      '  cron: "0 9 * * 1",',
      '  markdown: "Summarise last week\'s tickets.",',
      "});",
    ),
  },
};

/** BDK's decision helper: a server tool gates a refund with `decide` from `/extensions/jev` (a
 * choice, a score, a boolean), which the agent's model answers in one structured call. */
export const jevProject: CompatProject = {
  agentDir: ".",
  tool: "gate_refund",
  message: '[call gate_refund {"orderId":"A-1","amount":40}]',
  output: { orderId: "A-1", tier: "low", confidence: 50, autoApprove: true },
  files: {
    "package.json": JSON.stringify({
      name: "refund-gate",
      private: true,
      type: "module",
      dependencies: { "@cursor/bdk": "0.2.3" },
    }),
    "bot/instructions.md": "You gate refunds with the gate_refund tool.\n",
    "bot/tools/gate_refund.ts": lines(
      'import { decide } from "@cursor/bdk/extensions/jev";',
      'import { defineTool } from "@cursor/bdk/tools";',
      'import { z } from "zod";',
      "",
      "export default defineTool({",
      '  description: "Decide whether a refund can go through without review",',
      '  effect: "read",',
      "  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),",
      "  execute: async ({ orderId, amount }) => {",
      "    const context = { orderId, amount };",
      "    const tier = await decide({",
      '      question: "How risky is this refund?",',
      "      context,",
      '      choices: ["low", "medium", "high"],',
      "    });",
      '    const confidence = await decide({ question: "How sure are you?", context, score: { min: 0, max: 100 } });',
      '    const autoApprove = await decide({ question: "Approve without review?", context, boolean: true });',
      "    return { orderId, tier, confidence, autoApprove };",
      "  },",
      "});",
    ),
  },
};

/** A name the package does not export: one diagnostic, on the author's file, naming the specifier
 * (from an import written over several lines). */
export const missingExportProject: Record<string, string> = {
  "package.json": JSON.stringify({ name: "missing-export", private: true, type: "module" }),
  "bot/instructions.md": "x\n",
  "bot/lib/checks.ts": lines(
    "import {",
    "  includes,",
    "  notAThing,",
    '} from "@cursor/bdk/evals";',
    "",
    "export const check = [includes, notAThing];",
  ),
  "bot/tools/check.ts": lines(
    'import { defineTool } from "@cursor/bdk/tools";',
    'import { check } from "../lib/checks.js";',
    "",
    'export default defineTool({ description: "d", execute: () => String(check) });',
  ),
  "bot/tools/check_again.ts": lines(
    'import { defineTool } from "@cursor/bdk/tools";',
    'import { check } from "../lib/checks.js";',
    "",
    'export default defineTool({ description: "d", execute: () => String(check) });',
  ),
};
