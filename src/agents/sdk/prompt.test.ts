import { describe, expect, it } from "vitest";
import { prompt } from "./prompt";

describe("prompt", () => {
  it("drops the leading newline and the closing line, and strips the common indentation", () => {
    const text = prompt`
      Look up the order.
      Reply with its status.
    `;
    expect(text).toBe("Look up the order.\nReply with its status.");
  });

  it("keeps blank lines and relative indentation", () => {
    const text = prompt`
      Steps:

        1. read
          - nested
        2. reply
    `;
    expect(text).toBe("Steps:\n\n  1. read\n    - nested\n  2. reply");
  });

  it("ignores whitespace-only lines when finding the common indentation and empties them", () => {
    const text = prompt`
        a
 
        b
    `;
    expect(text).toBe("a\n\nb");
  });

  it("leaves a single-line template alone, including text right after the backtick", () => {
    expect(prompt`hello ${"world"}`).toBe("hello world");
    expect(prompt`First line
      second`).toBe("First line\nsecond");
  });

  it("continues a multi-line value at the indentation of its line", () => {
    const list = "- one\n- two";
    const text = prompt`
      Items:
        ${list}
      End.
    `;
    expect(text).toBe("Items:\n  - one\n  - two\nEnd.");
  });

  it("does not re-indent blank lines of a value, and does not count values toward the indentation", () => {
    const body = "para one\n\npara two";
    const text = prompt`
      ${body}
      tail
    `;
    expect(text).toBe("para one\n\npara two\ntail");
  });

  it("puts an array value on one line per item", () => {
    expect(prompt`
      ${["a", "b"]}
    `).toBe("a\nb");
  });

  it("renders other values like a template literal does", () => {
    expect(prompt`${1} ${true} ${null} ${undefined}`).toBe("1 true null undefined");
  });

  it("returns an empty string for an empty template", () => {
    expect(prompt``).toBe("");
    expect(prompt`
    `).toBe("");
  });
});

describe("prompt.lines", () => {
  it("applies the same rules and splits into lines", () => {
    const lines = prompt.lines`
      Review for:
        - security
      ${"Be brief."}
    `;
    expect(lines).toEqual(["Review for:", "  - security", "Be brief."]);
  });

  it("keeps blank lines as empty entries and returns [] for nothing", () => {
    expect(prompt.lines`
      a

      b
    `).toEqual(["a", "", "b"]);
    expect(prompt.lines``).toEqual([]);
  });
});
