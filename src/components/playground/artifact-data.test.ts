import { describe, expect, it } from "vitest";
import { cellText, previewOf, tableOf } from "./artifact-data";

describe("tableOf", () => {
  it("shows a flat object as one row per field", () => {
    expect(tableOf({ orderId: "A-1", amount: 3, paid: true, note: null })).toEqual({
      shape: "fields",
      rows: [
        ["orderId", "A-1"],
        ["amount", 3],
        ["paid", true],
        ["note", null],
      ],
    });
  });

  it("shows a list of flat objects as rows under the union of their fields", () => {
    expect(
      tableOf([
        { id: 1, name: "a" },
        { id: 2, extra: "x" },
      ]),
    ).toEqual({
      shape: "rows",
      columns: ["id", "name", "extra"],
      rows: [
        [1, "a", undefined],
        [2, undefined, "x"],
      ],
    });
  });

  it("leaves nested, empty, scalar and very wide data to JSON", () => {
    expect(tableOf({ order: { id: "A-1" } })).toBeNull();
    expect(tableOf({})).toBeNull();
    expect(tableOf([])).toBeNull();
    expect(tableOf([1, 2])).toBeNull();
    expect(tableOf([{ a: 1 }, { b: [1] }])).toBeNull();
    expect(tableOf("text")).toBeNull();
    expect(tableOf(null)).toBeNull();
    expect(tableOf(undefined)).toBeNull();
    expect(tableOf([Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`c${i}`, i]))])).toBeNull();
  });
});

describe("cellText", () => {
  it("shows strings as they are and other values as JSON, a missing one as nothing", () => {
    expect(cellText("A-1")).toBe("A-1");
    expect(cellText(3)).toBe("3");
    expect(cellText(false)).toBe("false");
    expect(cellText(null)).toBe("null");
    expect(cellText(undefined)).toBe("");
  });
});

describe("previewOf", () => {
  it("reads a flat object as field: value pairs", () => {
    expect(previewOf({ orderId: "A-1", amount: 3 })).toBe("orderId: A-1 · amount: 3");
  });

  it("puts other data on one line as JSON, and says when there is none", () => {
    expect(previewOf({ lines: [{ sku: "x" }] })).toBe('{"lines":[{"sku":"x"}]}');
    expect(previewOf("two\n  lines")).toBe("two lines");
    expect(previewOf(undefined)).toBe("no data");
  });

  it("cuts a long preview with an ellipsis", () => {
    const preview = previewOf({ text: "x".repeat(300) }, 20);
    expect(preview).toBe(`text: ${"x".repeat(14)}…`);
  });
});
