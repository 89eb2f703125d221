import { describe, expect, it } from "vitest";
import { evalCases, evalListing, selectCases } from "./eval-cases";

const manifest = {
  evals: [
    {
      id: "refunds",
      file: "evals/refunds.eval.ts",
      cases: ["asks-approval", "explains-timing"],
      tags: ["refunds"],
      caseTags: { "explains-timing": ["smoke"] },
      iterations: 3,
    },
    { id: "readiness", file: "evals/readiness.eval.ts", cases: [], tags: ["smoke"], timeoutMs: 1000 },
    { id: "sql/0000", file: "evals/sql.eval.ts", cases: [], index: 0 },
    { id: "sql/0001", file: "evals/sql.eval.ts", cases: ["a"], index: 1 },
  ],
  evalConfig: { maxConcurrency: 2 },
};

describe("eval cases", () => {
  it("names each case by its full id, with its eval's settings", () => {
    const cases = evalCases(manifest);
    expect(cases.map((c) => c.id)).toEqual([
      "refunds/asks-approval",
      "refunds/explains-timing",
      "readiness",
      "sql/0000",
      "sql/0001/a",
    ]);
    expect(cases[1]).toMatchObject({
      evalId: "refunds",
      caseId: "explains-timing",
      tags: ["refunds", "smoke"],
      iterations: 3,
    });
    expect(cases[2]).toMatchObject({ timeoutMs: 1000, iterations: 1 });
    expect(cases[4]).toMatchObject({ file: "evals/sql.eval.ts", index: 1, caseId: "a" });
  });

  it("selects by id, by a prefix that ends at a segment, and by tag", () => {
    const cases = evalCases(manifest);
    const ids = (selection: object) => selectCases(cases, selection).map((c) => c.id);
    expect(ids({})).toHaveLength(5);
    expect(ids({ ids: ["refunds"] })).toEqual(["refunds/asks-approval", "refunds/explains-timing"]);
    expect(ids({ ids: ["sql"] })).toEqual(["sql/0000", "sql/0001/a"]);
    // A prefix stops at a segment: "ref" names nothing.
    expect(ids({ ids: ["ref"] })).toEqual([]);
    expect(ids({ tags: ["smoke"] })).toEqual(["refunds/explains-timing", "readiness"]);
    expect(ids({ ids: ["refunds"], tags: ["smoke"] })).toEqual(["refunds/explains-timing"]);
  });

  it("lists evals with their cases and the concurrency", () => {
    const listing = evalListing(manifest);
    expect(listing.maxConcurrency).toBe(2);
    expect(listing.evals[0]).toEqual({
      id: "refunds",
      file: "evals/refunds.eval.ts",
      tags: ["refunds"],
      iterations: 3,
      cases: ["refunds/asks-approval", "refunds/explains-timing"],
      caseTags: { "refunds/asks-approval": ["refunds"], "refunds/explains-timing": ["refunds", "smoke"] },
    });
    expect(evalListing({ evals: [] }).maxConcurrency).toBe(4);
  });
});
