import { describe, expect, it } from "vitest";
import { maxDelayMs, parseDirectives } from "./scripted-directives";

describe("parseDirectives", () => {
  it("removes every directive from the text and reads its argument", () => {
    const parsed = parseDirectives(
      'Look [delay 2s] this up [call lookup {"id":1}] [reason off] [delay 250] now [fail: no luck]',
    );
    expect(parsed.text).toBe("Look this up now");
    expect(parsed.delayMs).toBe(2250);
    expect(parsed.failMessage).toBe("no luck");
    expect(parsed.isReasoningOff).toBe(true);
    expect(parsed.requests).toEqual([{ directive: "call", toolName: "lookup", input: { id: 1 } }]);
  });

  it("leaves other bracketed text, and directives it cannot read, as they are", () => {
    const parsed = parseDirectives("See [1] and [delay soon] and [callback] or [note: x]");
    expect(parsed.text).toBe("See [1] and [delay soon] and [callback] or [note: x]");
    expect(parsed.delayMs).toBe(0);
    expect(parsed.requests).toEqual([]);
  });

  it("reads JSON with brackets and quoted brackets, and defaults a missing input to {}", () => {
    const parsed = parseDirectives('[call search {"terms":["a]b", "c"], "q":"x\\"]"}] [call ping]');
    expect(parsed.requests.map((request) => request.input)).toEqual([{ terms: ["a]b", "c"], q: 'x"]' }, {}]);
    expect(parsed.text).toBe("");
  });

  it("reports invalid JSON instead of calling the tool", () => {
    const parsed = parseDirectives("[call lookup {id: 1}]");
    expect(parsed.requests).toEqual([]);
    expect(parsed.notes).toEqual(["The input for lookup is not valid JSON, so I did not call it."]);
  });

  it("turns [subagent …] into a task call and keeps apostrophes in the prompt", () => {
    const parsed = parseDirectives("[subagent writer Draft the README's intro]");
    expect(parsed.requests).toEqual([
      { directive: "subagent", toolName: "task", input: { subagent: "writer", prompt: "Draft the README's intro" } },
    ]);
  });

  it("uses a default failure message and caps delays", () => {
    expect(parseDirectives("[fail]").failMessage).toBe("scripted failure");
    expect(parseDirectives("[delay 99999s]").delayMs).toBe(maxDelayMs);
  });

  it("takes [say: …] as the exact reply, empty included", () => {
    expect(parseDirectives("draft [say: Ship it on Monday.]").say).toBe("Ship it on Monday.");
    expect(parseDirectives("[say:]").say).toBe("");
    expect(parseDirectives("no directive").say).toBeUndefined();
  });

  it("turns [remind <in>: prompt] into a call of the remind tool", () => {
    expect(parseDirectives("[remind 5m: Check the order again]").requests).toEqual([
      { directive: "call", toolName: "remind", input: { in: "5m", prompt: "Check the order again" } },
    ]);
  });
});
