import { describe, expect, it } from "vitest";
import { createLineSplitter } from "./line-splitter";

describe("createLineSplitter", () => {
  it("returns whole lines and keeps a partial line for the next chunk", () => {
    const splitter = createLineSplitter();
    expect(splitter.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(":2}\n")).toEqual(['{"b":2}']);
    expect(splitter.flush()).toEqual([]);
  });

  it("handles several lines in one chunk and a line split over many chunks", () => {
    const splitter = createLineSplitter();
    expect(splitter.push("1\n2\n3")).toEqual(["1", "2"]);
    expect(splitter.push("4")).toEqual([]);
    expect(splitter.push("5")).toEqual([]);
    expect(splitter.push("\n")).toEqual(["345"]);
  });

  it("skips blank lines and tolerates CRLF", () => {
    const splitter = createLineSplitter();
    expect(splitter.push("\n\r\n  \n{}\r\n")).toEqual(["{}"]);
  });

  it("gives the unterminated last line on flush, once", () => {
    const splitter = createLineSplitter();
    splitter.push("x\ny");
    expect(splitter.flush()).toEqual(["y"]);
    expect(splitter.flush()).toEqual([]);
  });

  it("refuses a line longer than the limit", () => {
    const splitter = createLineSplitter({ maxLineChars: 4 });
    expect(splitter.push("abcd")).toEqual([]);
    expect(() => splitter.push("e")).toThrow(/longer than 4/);
  });
});
