import { describe, expect, it } from "vitest";
import { kindChoices, matchingArtifacts } from "./artifact-filter";

const records = [
  { kind: "refund", key: "A-1", title: "Refund for Ada" },
  { kind: "note", key: "call-back" },
  { kind: "refund", key: "B-7" },
];

describe("matchingArtifacts", () => {
  it("matches the key or the title, ignoring case and surrounding space", () => {
    expect(matchingArtifacts(records, " ada ").map((r) => r.key)).toEqual(["A-1"]);
    expect(matchingArtifacts(records, "b-7").map((r) => r.key)).toEqual(["B-7"]);
    expect(matchingArtifacts(records, "CALL").map((r) => r.key)).toEqual(["call-back"]);
  });

  it("keeps every record, in order, for a blank search, and none for a search nothing has", () => {
    expect(matchingArtifacts(records, "  ").map((r) => r.key)).toEqual(["A-1", "call-back", "B-7"]);
    expect(matchingArtifacts(records, "zzz")).toEqual([]);
  });
});

describe("kindChoices", () => {
  it("lists the declared kinds first, then kinds only records carry, once each", () => {
    expect(kindChoices(["refund", "invoice"], records, "")).toEqual(["refund", "invoice", "note"]);
  });

  it("keeps the chosen kind when no loaded record has it", () => {
    expect(kindChoices([], [], "artifact")).toEqual(["artifact"]);
  });
});
