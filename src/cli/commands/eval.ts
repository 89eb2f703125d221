// agentfold eval [--dir <folder>] [--list] [--id ID]… [--tag T]… [--iterations N] [--json] [--junit <file>]
//                [--url <instance> --token <t> [--slug <agent>]]
// Runs an agent's evals (docs/evals.md): on a throwaway stack on this machine (eval-local.ts), or,
// with --url (or AGENTFOLD_URL), on a running instance (eval-remote.ts). Exit 0 when every case
// passed, 1 when one failed or could not run, 2 for a command line it cannot act on.
import fs from "node:fs";
import path from "node:path";
import { type Env, parseEnv } from "@/env";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { stopAllChildren } from "@/cli/start/child";
import { UsageError } from "@/cli/usage-error";
import { AppError } from "@/server/errors";
import { type EvalCaseRef, evalCases, selectCases } from "@/server/evals/eval-cases";
import type { EvalListing, EvalSelection } from "@/server/evals/schema";
import type { EvalBackend } from "./eval-backend";
import { junitXml } from "./eval-junit";
import { createProgress, plural, shownPath } from "./eval-report";
import { remoteBackend, type RemoteTarget } from "./eval-remote";
import { loadForCli } from "./validate";
import { defineCommand } from "@/cli/command";
import { keepStdoutForTheAnswer } from "@/cli/local/quiet-stdout";
import { resolveInstance } from "@/cli/remote/instance";
import { agentSlugFlag, dirFlag, jsonFlag, tokenFlag, urlFlag } from "@/cli/flags";

export type EvalOptions = {
  dir: string;
  isList: boolean;
  ids: string[];
  tags: string[];
  iterations?: string;
  isJson: boolean;
  junit?: string;
  url?: string;
  token?: string;
  slug?: string;
};

const say = (line: string) => process.stderr.write(`agentfold: ${line}\n`);

/** The run's selection from the flags; a bad --iterations is a usage error. */
export function selectionOf(options: Pick<EvalOptions, "ids" | "tags" | "iterations">): EvalSelection {
  let iterations: number | undefined;
  if (options.iterations !== undefined) {
    iterations = Number(options.iterations);
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > 100)
      throw new UsageError(`--iterations must be a whole number from 1 to 100, not '${options.iterations}'`);
  }
  return {
    ...(options.ids.length ? { ids: options.ids } : {}),
    ...(options.tags.length ? { tags: options.tags } : {}),
    ...(iterations ? { iterations } : {}),
  };
}

/** The instance --url or AGENTFOLD_URL names (its token: --token, AGENTFOLD_TOKEN or its login)
 * and the agent: --slug, else the folder's name, as deploy names it. Undefined: run locally. */
export function remoteTargetOf(options: EvalOptions, config: Env): RemoteTarget | undefined {
  const instance = resolveInstance(options, config, { isNamedOnly: true });
  return instance && { ...instance, slug: options.slug ?? path.basename(path.resolve(options.dir)) };
}

function caseLine(c: Pick<EvalCaseRef, "id" | "tags" | "iterations">): string {
  return `${c.id}${c.tags.length ? `  [${c.tags.join(", ")}]` : ""}${c.iterations > 1 ? `  ×${c.iterations}` : ""}`;
}

/** A listing's cases as the selection sees them, each with its own tags and its eval's. */
function casesOfListing(listing: EvalListing): EvalCaseRef[] {
  return listing.evals.flatMap((e) =>
    e.cases.map((id) => ({
      id,
      evalId: e.id,
      file: e.file,
      tags: e.caseTags[id] ?? e.tags,
      iterations: e.iterations,
      timeoutMs: 0,
    })),
  );
}

async function listCases(options: EvalOptions, target: RemoteTarget | undefined): Promise<number> {
  const selection = selectionOf(options);
  let cases: EvalCaseRef[];
  if (target) cases = casesOfListing(await remoteBackend(target).list());
  else {
    const loaded = await loadForCli(options.dir);
    for (const diagnostic of loaded.diagnostics) say(formatDiagnostic(diagnostic));
    if (!loaded.ok || !loaded.manifest) return 1;
    cases = evalCases(loaded.manifest);
  }
  const selected = selectCases(cases, selection).map((c) => ({
    ...c,
    iterations: selection.iterations ?? c.iterations,
  }));
  if (options.isJson) {
    const listed = selected.map(({ id, evalId, file, tags, iterations }) => ({ id, evalId, file, tags, iterations }));
    process.stdout.write(`${JSON.stringify({ ok: true, cases: listed }, null, 2)}\n`);
  } else if (selected.length) process.stdout.write(`${selected.map(caseLine).join("\n")}\n`);
  say(`${plural(selected.length, "case")}${cases.length > selected.length ? ` of ${cases.length}` : ""}`);
  return 0;
}

export async function evalCommand(options: EvalOptions, config: Env): Promise<number> {
  const target = remoteTargetOf(options, config);
  const selection = selectionOf(options);
  if (options.isList) return listCases(options, target);
  if (!target) {
    if (!fs.existsSync(path.resolve(options.dir))) throw new UsageError(`no such folder: ${path.resolve(options.dir)}`);
    keepStdoutForTheAnswer(config);
  }
  let backend: EvalBackend | undefined;
  let closeLocal: (() => Promise<void>) | undefined;
  let runId: string | undefined;
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) return;
    controller.abort();
    if (target && runId) say(`interrupted; run ${runId} goes on on ${target.url}`);
    else if (!target) say("interrupted; stopping the local stack…");
    // Then any child whose start was under way, which the stack did not hold yet.
    void (closeLocal?.() ?? Promise.resolve()).then(stopAllChildren).finally(() => process.exit(130));
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, onSignal);
  try {
    if (target) backend = remoteBackend(target);
    else {
      // Loaded only here: importing the worker loads the Restate SDK, after keepStdoutForTheAnswer.
      const { localBackend } = await import("./eval-local");
      const started = await localBackend({
        dir: options.dir,
        slug: options.slug,
        config,
        say,
        onClose: (close) => (closeLocal = close),
      });
      if ("diagnostics" in started) {
        for (const line of started.diagnostics) say(line);
        say("the folder is not a valid agent; nothing ran");
        return 1;
      }
      backend = started;
    }
    const code = await runEvals(backend, options, selection, (id) => (runId = id), controller.signal);
    // Interrupted at the very end: the signal handler is stopping the stack and sets the exit code.
    return controller.signal.aborted ? -1 : code;
  } catch (error) {
    // The signal handler ends the process once the stack is down; a step that failed because it
    // was stopping is no failure of the run.
    if (controller.signal.aborted) return -1;
    throw error;
  } finally {
    // The handlers stay until the stack is down: a Ctrl-C while it stops still stops the rest.
    if (!controller.signal.aborted) await backend?.close();
    if (!controller.signal.aborted) for (const signal of ["SIGINT", "SIGTERM"]) process.off(signal, onSignal);
  }
}

async function runEvals(
  backend: EvalBackend,
  options: EvalOptions,
  selection: EvalSelection,
  onStarted: (runId: string) => void,
  signal: AbortSignal,
): Promise<number> {
  let started: Awaited<ReturnType<EvalBackend["start"]>>;
  try {
    started = await backend.start(selection);
  } catch (error) {
    // A selection that matches no case is the command line's mistake.
    if (!(error instanceof AppError && error.code === "invalid_input")) throw error;
    say(error.message);
    return 2;
  }
  onStarted(started.runId);
  const total = started.cases.reduce((sum, c) => sum + c.iterations, 0);
  const runs = total > started.cases.length ? ` (${total} runs)` : "";
  say(`running ${plural(started.cases.length, "case")}${runs} on ${backend.where} (run ${started.runId})`);
  const progress = createProgress({
    write: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stderr.isTTY),
    cases: started.cases,
  });
  const listing = options.junit ? await backend.list() : undefined;
  const { run, results } = await backend.follow(started.runId, (result) => progress.update(result), signal);
  progress.finish(run, results);
  if (options.junit) {
    const file = path.resolve(options.junit);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, junitXml({ run, results, listing }));
    say(`JUnit report: ${shownPath(file)}`);
  }
  const isPassed = run.status === "passed";
  if (options.isJson) process.stdout.write(`${JSON.stringify({ ok: isPassed, run, results }, null, 2)}\n`);
  return isPassed ? 0 : 1;
}

export const evalCommandSpec = defineCommand({
  name: "eval",
  group: "sessions",
  summary:
    "Run the folder's evals on a throwaway local stack, or the deployed agent's on an instance; exit 0 when every case passed, 1 when one failed",
  details: "docs/evals.md",
  flags: {
    dir: dirFlag,
    id: { type: "string", value: "<id>", multiple: true, description: "Only this case (repeatable)" },
    tag: { type: "string", value: "<tag>", multiple: true, description: "Only cases with this tag (repeatable)" },
    iterations: { type: "string", value: "<N>", description: "Run each case N times" },
    list: { type: "boolean", description: "Only list the case ids (and tags) that would run" },
    json: jsonFlag,
    junit: { type: "string", value: "<file>", description: "Also write a JUnit XML report" },
    url: urlFlag,
    token: tokenFlag,
    slug: agentSlugFlag,
  },
  examples: [
    "agentfold eval --dir examples/support-desk",
    "agentfold eval --url https://agents.example.com --token $T --slug desk --junit report.xml",
  ],
  run: ({ flags }) =>
    evalCommand(
      {
        dir: flags.dir ?? ".",
        isList: flags.list,
        ids: flags.id,
        tags: flags.tag,
        iterations: flags.iterations,
        isJson: flags.json,
        junit: flags.junit,
        url: flags.url,
        token: flags.token,
        slug: flags.slug,
      },
      parseEnv(),
    ),
});
