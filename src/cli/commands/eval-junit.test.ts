import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { EvalListing, EvalResult, EvalRun } from "@/server/evals/schema";
import { junitXml } from "./eval-junit";

const run: EvalRun = {
  id: "run_1",
  versionId: "ver_1",
  versionNumber: 3,
  status: "failed",
  startedBy: "the CLI",
  createdAt: "2026-01-02T03:04:05.000Z",
  finishedAt: "2026-01-02T03:04:09.000Z",
  selection: {},
  counts: { total: 4, pending: 0, running: 0, passed: 2, failed: 1, errored: 1 },
  passRate: 0.5,
  byCase: {},
  tokens: { input: 0, output: 0 },
  costUsd: 0,
  durationMs: 4_000,
};

function result(caseId: string, iteration: number, patch: Partial<EvalResult> = {}): EvalResult {
  return {
    runId: run.id,
    caseId,
    iteration,
    status: "passed",
    assertions: [{ kind: "succeeded", pass: true, message: "every turn completed" }],
    error: null,
    sessionIds: ["ses_a"],
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    durationMs: 1_250,
    startedAt: run.createdAt,
    finishedAt: run.finishedAt,
    ...patch,
  };
}

const listing: EvalListing = {
  maxConcurrency: 4,
  evals: [
    {
      id: "refunds",
      file: "evals/refunds.eval.ts",
      tags: [],
      iterations: 2,
      cases: ["refunds/asks-approval"],
      caseTags: { "refunds/asks-approval": [] },
    },
    {
      id: "builds/api",
      file: "evals/builds/api.eval.ts",
      tags: [],
      iterations: 1,
      cases: ["builds/api"],
      caseTags: { "builds/api": [] },
    },
  ],
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ["testsuite", "testcase"].includes(name),
});

type Parsed = {
  testsuites: {
    tests: string;
    failures: string;
    errors: string;
    testsuite: {
      name: string;
      tests: string;
      failures: string;
      errors: string;
      testcase: {
        classname: string;
        name: string;
        time: string;
        failure?: { message: string; "#text"?: string };
        error?: { message: string };
        skipped?: { message: string };
      }[];
    }[];
  };
};

/** The XML 1.0 Char production, written out independently of the code under test. */
function isXmlChar(codePoint: number): boolean {
  return (
    [0x9, 0xa, 0xd].includes(codePoint) ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    codePoint >= 0x10000
  );
}

const readable = (text: string) => [...text].map((c) => (isXmlChar(c.codePointAt(0)!) ? c : "\ufffd")).join("");

function parse(xml: string): Parsed {
  expect([...xml].every((c) => isXmlChar(c.codePointAt(0)!))).toBe(true);
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as Parsed;
}

describe("junitXml", () => {
  it("writes a suite per eval file and a case per case and iteration, with failures and errors", () => {
    const failedAssertion = { kind: "check" as const, pass: false, message: 'expected "Hi" to include "refund"' };
    const xml = junitXml({
      run,
      listing,
      results: [
        result("refunds/asks-approval", 2, { status: "failed", assertions: [failedAssertion], durationMs: 2_500 }),
        result("refunds/asks-approval", 1),
        result("builds/api", 1, { status: "error", assertions: [], error: "the model provider answered 401" }),
      ],
    });
    const { testsuites } = parse(xml);
    expect(testsuites).toMatchObject({ tests: "3", failures: "1", errors: "1" });
    const [refunds, builds] = testsuites.testsuite;
    expect(refunds).toMatchObject({ name: "evals/refunds.eval.ts", tests: "2", failures: "1", errors: "0" });
    expect(refunds!.testcase.map((c) => [c.classname, c.name, c.time])).toEqual([
      ["refunds", "refunds/asks-approval #1", "1.250"],
      ["refunds", "refunds/asks-approval #2", "2.500"],
    ]);
    expect(refunds!.testcase[0]!.failure).toBeUndefined();
    expect(refunds!.testcase[1]!.failure?.message).toBe('expected "Hi" to include "refund"');
    // The eval's id, not the id's first segment, names the class.
    expect(builds).toMatchObject({ name: "evals/builds/api.eval.ts", errors: "1" });
    expect(builds!.testcase[0]).toMatchObject({ classname: "builds/api", name: "builds/api" });
    expect(builds!.testcase[0]!.error?.message).toBe("the model provider answered 401");
  });

  it("marks a case that did not finish as skipped", () => {
    const { testsuites } = parse(junitXml({ run, listing, results: [result("builds/api", 1, { status: "running" })] }));
    expect(testsuites.testsuite[0]!.testcase[0]!.skipped?.message).toBe("did not finish (running)");
  });

  it("carries any message through a parser unchanged, but for characters XML cannot hold", () => {
    // Mostly the characters XML treats specially, so that most runs contain several.
    const char = fc.oneof(
      fc.constantFrom(
        "&",
        "<",
        ">",
        '"',
        "'",
        "\n",
        "\r",
        "\t",
        " ",
        "\u0000",
        "\u001b",
        "\ud800",
        "\udc00",
        "\uffff",
        "a",
      ),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    const text = (minLength: number) => fc.string({ unit: char, minLength });
    fc.assert(
      fc.property(text(0), text(1), (message, caseId) => {
        const failed = { kind: "check" as const, pass: false, message };
        const xml = junitXml({ run, results: [result(caseId, 1, { status: "failed", assertions: [failed] })] });
        const testcase = parse(xml).testsuites.testsuite[0]!.testcase[0]!;
        expect(testcase.name).toBe(readable(caseId));
        expect(testcase.failure?.message).toBe(readable(message) || "failed");
        expect(testcase.failure?.["#text"] ?? "").toBe(readable(message));
      }),
      { numRuns: 500 },
    );
  });
});
