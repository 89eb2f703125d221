import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendLines, type LogLine, logsPath } from "./logs-model";

const line = (id: number): LogLine => ({
  id: String(id),
  at: "2026-12-02T00:00:00.000Z",
  level: "info",
  source: "tool",
  message: `m${id}`,
});

describe("the Logs tab's lines", () => {
  it("keeps them in id order, each once, the newest `max`", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 40 }), { maxLength: 10 }),
        (polls) => {
          let kept: LogLine[] = [];
          for (const ids of polls) kept = appendLines(kept, ids.map(line), 50);
          const all = [...new Set(polls.flat())].sort((a, b) => a - b);
          expect(kept.map((l) => Number(l.id))).toEqual(all.slice(-50));
        },
      ),
    );
  });

  it("orders ids as numbers, not as text", () => {
    expect(appendLines([line(9)], [line(10), line(100)]).map((l) => l.id)).toEqual(["9", "10", "100"]);
  });

  it("answers the same array when nothing new came", () => {
    const kept = [line(1), line(2)];
    expect(appendLines(kept, [line(2)])).toBe(kept);
  });

  it("asks for the newest lines first, then for what comes past the cursor", () => {
    expect(logsPath({ level: "warn", session: "ses_1" })).toBe("/logs?level=warn&session=ses_1&limit=200");
    expect(logsPath({ source: "hook" }, "42")).toBe("/logs?source=hook&cursor=42&limit=1000");
  });
});
