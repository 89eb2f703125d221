// The Evals tab's view of a run: stream lines fold into the latest result per case and iteration,
// cases group in the run's order with a pass rate over their iterations, and following a run
// reads its state, streams its changes, and reads the state again when a stream drops or ends.
import { describe, expect, it } from "vitest";
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import { ApiError, type ApiClient } from "./api-client";
import { applyEvalLine, caseRows, formatDuration, parseEvalLine, viewOf } from "./eval-run-model";
import { type EvalFollowStatus, followEvalRun } from "./follow-eval-run";

function run(fields: Partial<EvalRun> = {}): EvalRun {
  return {
    id: "run_1",
    versionId: "ver_1",
    versionNumber: 3,
    status: "running",
    startedBy: "ada@example.test",
    createdAt: "2026-01-01T00:00:00.000Z",
    finishedAt: null,
    selection: { ids: ["refunds"] },
    counts: { total: 3, pending: 3, running: 0, passed: 0, failed: 0, errored: 0 },
    passRate: null,
    byCase: { "refunds/asks": { passed: 0, total: 2 }, "refunds/explains": { passed: 0, total: 1 } },
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    durationMs: null,
    ...fields,
  };
}

function result(caseId: string, iteration: number, status: EvalResult["status"], durationMs: number | null = null) {
  return {
    runId: "run_1",
    caseId,
    iteration,
    status,
    assertions: status === "passed" ? [{ kind: "succeeded", pass: true, message: "every turn completed" }] : [],
    error: status === "error" ? "the agent has no active version" : null,
    sessionIds: status === "pending" ? [] : [`ses_${caseId.length}${iteration}`],
    tokens: { input: 1, output: 1 },
    costUsd: 0,
    durationMs,
    startedAt: status === "pending" ? null : "2026-01-01T00:00:01.000Z",
    finishedAt: durationMs === null ? null : "2026-01-01T00:00:02.000Z",
  } satisfies EvalResult;
}

describe("the run view", () => {
  it("keeps the latest result per case and iteration, and ignores lines of another run", () => {
    let view = viewOf(run(), [result("refunds/asks", 1, "pending")]);
    view = applyEvalLine(view, { type: "result", result: result("refunds/asks", 1, "running") })!;
    view = applyEvalLine(view, { type: "result", result: result("refunds/asks", 1, "passed", 1200) })!;
    view = applyEvalLine(view, { type: "result", result: { ...result("refunds/asks", 2, "failed"), runId: "run_2" } })!;
    view = applyEvalLine(view, { type: "run", run: run({ id: "run_2", status: "failed" }) })!;
    expect(Object.values(view.results).map((r) => `${r.caseId}#${r.iteration} ${r.status}`)).toEqual([
      "refunds/asks#1 passed",
    ]);
    expect(view.run.id).toBe("run_1");
    expect(applyEvalLine(view, { type: "run", run: run({ status: "passed" }) })!.run.status).toBe("passed");
  });

  it("groups per case in the run's order: running while an iteration is, then the worst outcome", () => {
    const view = viewOf(run(), [
      result("refunds/explains", 1, "error", 10),
      result("refunds/asks", 2, "pending"),
      result("refunds/asks", 1, "passed", 1500),
    ]);
    expect(
      caseRows(view).map(({ caseId, status, passed, total, durationMs }) => [
        caseId,
        status,
        passed,
        total,
        durationMs,
      ]),
    ).toEqual([
      ["refunds/asks", "running", 1, 2, 1500],
      ["refunds/explains", "error", 0, 1, 10],
    ]);
    const done = viewOf(run(), [
      result("refunds/asks", 1, "passed", 1),
      result("refunds/asks", 2, "failed", 2),
      result("refunds/explains", 1, "pending"),
    ]);
    expect(caseRows(done).map((row) => row.status)).toEqual(["failed", "pending"]);
    expect(caseRows(done)[0]!.iterations.map((r) => r.iteration)).toEqual([1, 2]);
  });

  it("reads stream lines, and skips what is not one", () => {
    expect(parseEvalLine(JSON.stringify({ type: "run", run: run() }))).toMatchObject({ type: "run" });
    expect(parseEvalLine('{"type":"heartbeat"}')).toBeUndefined();
    expect(parseEvalLine("not json")).toBeUndefined();
    expect(parseEvalLine('{"type":"error","message":"the worker stopped"}')).toEqual({
      type: "error",
      message: "the worker stopped",
    });
  });

  it("formats durations a person reads at a glance", () => {
    expect([null, 850, 1234, 125_000].map(formatDuration)).toEqual(["–", "850 ms", "1.2 s", "2 min 5 s"]);
  });
});

function body(lines: object[], end: "close" | "error"): ReadableStream<Uint8Array> {
  const queue = lines.map((line) => new TextEncoder().encode(`${JSON.stringify(line)}\n`));
  return new ReadableStream({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk) controller.enqueue(chunk);
      else if (end === "close") controller.close();
      else controller.error(new TypeError("network error"));
    },
  });
}

/** A client answering each state read and each stream with the next scripted answer. */
function scripted(states: (EvalRun | ApiError)[], streams: (() => ReadableStream<Uint8Array>)[]) {
  const calls: string[] = [];
  const client: ApiClient = {
    json: async <T>(_method: string, path: string) => {
      calls.push(path);
      const next = states.shift();
      if (!next) throw new Error("no more states");
      if (next instanceof ApiError) throw next;
      return { ok: true, run: next, results: [] } as T;
    },
    stream: async (path) => {
      calls.push(path);
      const next = streams.shift();
      if (!next) throw new Error("no more streams");
      return next();
    },
  };
  return { client, calls };
}

async function follow(client: ApiClient) {
  const controller = new AbortController();
  const statuses: EvalFollowStatus[] = [];
  const errors: (string | undefined)[] = [];
  let view: ReturnType<typeof viewOf> | undefined;
  await followEvalRun(client, "run_1", controller.signal, {
    onView: (update) => {
      view = update(view);
    },
    setStatus: (status) => statuses.push(status),
    setError: (error) => errors.push(error),
    sleep: async () => {},
  });
  return { statuses, errors, view };
}

describe("followEvalRun", () => {
  it("streams changes, reads the state again after a drop, and stops once the run has finished", async () => {
    const { client, calls } = scripted(
      [run(), run(), run({ status: "passed" })],
      [
        () => body([{ type: "result", result: result("refunds/asks", 1, "running") }], "error"),
        () => body([{ type: "run", run: run({ status: "passed" }) }], "close"),
      ],
    );
    const { statuses, errors, view } = await follow(client);
    expect(calls).toEqual([
      "/dev/evals/runs/run_1",
      "/dev/evals/runs/run_1/stream",
      "/dev/evals/runs/run_1",
      "/dev/evals/runs/run_1/stream",
      "/dev/evals/runs/run_1",
    ]);
    expect(statuses).toEqual(["live", "reconnecting", "live", "reconnecting", "finished"]);
    expect(errors).toContain("network error; trying again…");
    expect(view?.run.status).toBe("passed");
  });

  it("shows a finished run without opening its stream", async () => {
    const { client, calls } = scripted([run({ status: "failed" })], []);
    expect((await follow(client)).statuses).toEqual(["finished"]);
    expect(calls).toEqual(["/dev/evals/runs/run_1"]);
  });

  it("gives up on a run it may not read", async () => {
    const { client } = scripted([new ApiError(404, "not_found", "No such run.")], []);
    const { statuses, errors } = await follow(client);
    expect(statuses).toEqual(["failed"]);
    expect(errors.at(-1)).toBe("No such run.");
  });
});
