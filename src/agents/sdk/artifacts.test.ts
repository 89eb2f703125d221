import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineArtifacts, resolveArtifactTag } from "./artifacts";
import { descriptorKindOf } from "./descriptor";
import { definitionMessages } from "./test-support";

describe("defineArtifacts", () => {
  it("fills defaults: no kinds, no agent tool, a cap of 1000", () => {
    const registry = defineArtifacts({});
    expect(descriptorKindOf(registry)).toBe("artifacts");
    expect(registry).toMatchObject({ kinds: {}, agentTool: false, max: 1000 });
  });

  it("accepts kinds with descriptions and schemas", () => {
    const schema = z.object({ verdict: z.string() });
    const registry = defineArtifacts({
      kinds: { "pr-review": { description: "A reviewed PR", schema } },
      agentTool: true,
      max: 50,
    });
    expect(registry.kinds["pr-review"]?.schema).toBe(schema);
    expect(registry.agentTool).toBe(true);
  });

  it("refuses kinds with empty descriptions", () => {
    expect(definitionMessages(() => defineArtifacts({ kinds: { report: { description: " " } } }))).toEqual([
      "defineArtifacts: kinds.report.description: must not be empty",
    ]);
  });

  it("refuses agentTool without kinds", () => {
    expect(definitionMessages(() => defineArtifacts({ agentTool: true }))).toEqual([
      "defineArtifacts: agentTool: needs at least one declared kind",
    ]);
  });

  it("refuses a bad cap, bad kind names and schemas that are not zod", () => {
    expect(
      definitionMessages(() =>
        defineArtifacts({
          max: 0,
          kinds: { "a b": { description: "x" }, ok: { description: "x", schema: {} as never } },
        }),
      ),
    ).toEqual([
      'defineArtifacts: kinds["a b"]: kind names are letters, digits, _ . - (at most 64)',
      "defineArtifacts: kinds.ok.schema: expected a zod schema",
      "defineArtifacts: max: must be a positive integer",
    ]);
  });
});

describe("resolveArtifactTag", () => {
  it("without declared kinds: any kind, defaulting to artifact", () => {
    expect(resolveArtifactTag(undefined, { data: 1 })).toEqual({ kind: "artifact", data: 1 });
    expect(resolveArtifactTag(defineArtifacts({}), { kind: "note", data: 1 })).toEqual({ kind: "note", data: 1 });
  });

  it("with declared kinds: refuses others and stores the parsed data", () => {
    const registry = defineArtifacts({
      kinds: {
        report: {
          description: "r",
          schema: z.object({ score: z.coerce.number(), tags: z.array(z.string()).default([]) }),
        },
      },
    });
    expect(resolveArtifactTag(registry, { kind: "report", data: { score: "7" } })).toEqual({
      kind: "report",
      data: { score: 7, tags: [] },
    });
    expect(resolveArtifactTag(registry, { data: { score: 1 } }).kind).toBe("report");
    expect(() => resolveArtifactTag(registry, { kind: "memo", data: {} })).toThrow(
      'unknown artifact kind "memo"; declared kinds: report',
    );
    expect(() => resolveArtifactTag(registry, { kind: "report", data: { score: "x" } })).toThrow(
      /^artifact data does not match kind "report": score: /,
    );
  });

  it("needs an explicit kind when several are declared", () => {
    const registry = defineArtifacts({ kinds: { a: { description: "a" }, b: { description: "b" } } });
    expect(() => resolveArtifactTag(registry, { data: 1 })).toThrow(
      "unknown artifact kind undefined; declared kinds: a, b",
    );
  });
});
