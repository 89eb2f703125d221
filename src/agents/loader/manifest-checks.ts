// What building the manifest checks with: the reports, texts and diagnostics of one build (`Check`),
// and the helpers every section shares: a module's load error, the expected default export, a
// model, a connection's `${NAME}` templates, and the text of instructions.
import type { Diagnostics } from "./diagnostics";
import { definitionLocation, fieldLines, stackLocation, type FieldLines } from "./source-lines";
import type { AgentLayout } from "./layout";
import type { ModuleReport } from "@/agents/sandbox/protocol";
import { templateNames } from "@/agents/sdk/env-template";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";
import { modelProblems } from "./agent-checks";

export type Summary = Record<string, unknown>;

export type Check = {
  reports: Map<string, ModuleReport>;
  diagnostics: Diagnostics;
  texts: Map<string, string>;
  routing: ModelRouting;
  /** The folder on disk, for the lines diagnostics point at (absent: no lines). */
  folderDir?: string;
  lineOf: FieldLines;
};

/** The check of one build; without `folderDir`, diagnostics point at files but no lines. */
export function newCheck(
  reports: ModuleReport[],
  diagnostics: Diagnostics,
  texts: Map<string, string>,
  routing: ModelRouting,
  folderDir?: string,
): Check {
  return {
    reports: new Map(reports.map((r) => [r.file, r])),
    diagnostics,
    texts,
    routing,
    folderDir,
    lineOf: folderDir ? fieldLines(folderDir) : () => undefined,
  };
}

/** A module's load error, on the author's file and line that caused it (a shared module's error
 * once, however many modules import it). */
export function moduleError(check: Check, file: string, report: ModuleReport, prefix = ""): void {
  const at = check.folderDir ? stackLocation(report.errorStack, check.folderDir) : undefined;
  const located = at ? definitionLocation(at, report.error ?? "", check.lineOf) : undefined;
  check.diagnostics.error(located?.file ?? file, prefix + (report.error ?? ""), located?.line);
}

/** The text of instructions in any form; module forms come from the sandbox's report. */
export function instructionsText(check: Check, ref: AgentLayout["instructions"], inline?: unknown): string {
  if (!ref) return typeof inline === "string" ? inline : "";
  if (ref.form !== "module") return ref.files.map((file) => (check.texts.get(file) ?? "").trim()).join("\n\n");
  const report = check.reports.get(ref.files[0]!);
  if (report?.kind === "string") return String(report.summary);
  const markdown = (report?.summary as Summary | undefined)?.markdown;
  return typeof markdown === "string" ? markdown : "";
}

/** The report for a file when its default export is the expected kind; diagnostics otherwise. */
export function expectKind(check: Check, file: string, kind: string, helper: string): Summary | undefined {
  const report = check.reports.get(file);
  if (!report) return undefined;
  if (report.error) {
    moduleError(check, file, report);
    return undefined;
  }
  if (report.kind !== kind) {
    check.diagnostics.error(file, `the default export is not ${helper}(...)`);
    return undefined;
  }
  return (report.summary ?? {}) as Summary;
}

export const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The agent's model: an error when no turn could run on it, else a warning per note (notes returned). */
export function checkModel(check: Check, file: string | undefined, model: unknown, routing = check.routing): string[] {
  const { error, notes } = modelProblems(model, routing);
  if (error) check.diagnostics.error(file, error);
  for (const note of notes) check.diagnostics.warning(file, note);
  return notes;
}

/** `${NAME}` templates in a connection whose variable the agent does not declare (warning). */
export function checkTemplates(check: Check, file: string, config: unknown, declared: Set<string>): void {
  for (const name of templateNames(JSON.stringify(config ?? {}))) {
    if (!declared.has(name))
      check.diagnostics.warning(
        file,
        `uses \${${name}}, but ${name} is not a declared secret (agent.ts hosting.secretNames)`,
      );
  }
}
