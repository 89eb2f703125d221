import { describe, expect, it } from "vitest";
import { type CallLogLine, callLogBounds, createCallLog } from "./call-logs";

function collect(mask = (text: string) => text) {
  const lines: CallLogLine[] = [];
  const log = createCallLog(
    { method: "runTool", file: "bot/tools/x.ts", context: { agentId: "a" } },
    (line) => lines.push(line),
    mask,
  );
  return { log, lines };
}

describe("a call's log", () => {
  it("hands each line on with its call, masked", () => {
    const { log, lines } = collect((text) => text.replaceAll("hunter2", "********"));
    log.add({ log: 1, level: "warn", text: "password is hunter2" });
    log.end();
    expect(lines).toEqual([
      {
        method: "runTool",
        file: "bot/tools/x.ts",
        context: { agentId: "a" },
        level: "warn",
        text: "password is ********",
      },
    ]);
  });

  it("keeps at most the bound's lines and then says how many went", () => {
    const { log, lines } = collect();
    for (let i = 0; i < callLogBounds.lines + 7; i++) log.add({ log: 1, level: "info", text: `line ${i}` });
    log.end();
    expect(lines).toHaveLength(callLogBounds.lines + 1);
    expect(lines.at(-2)!.text).toBe(`line ${callLogBounds.lines - 1}`);
    expect(lines.at(-1)).toMatchObject({
      level: "warn",
      text: expect.stringMatching(/^7 more lines from this call were dropped/),
    });
  });

  it("cuts a long line and counts bytes, not lines, for big output", () => {
    const { log, lines } = collect();
    const big = "x".repeat(callLogBounds.lineChars * 2);
    for (let i = 0; i < 100; i++) log.add({ log: 1, level: "info", text: big });
    log.end();
    expect(lines[0]!.text).toHaveLength(callLogBounds.lineChars + 1);
    const kept = Math.floor(callLogBounds.bytes / (callLogBounds.lineChars + 1));
    expect(lines).toHaveLength(kept + 1);
    expect(lines.at(-1)!.text).toMatch(new RegExp(`^${100 - kept} more lines`));
  });
});
