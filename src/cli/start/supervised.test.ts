import { describe, expect, it } from "vitest";
import { superviseChild } from "./supervised";
import { waitFor } from "./wait";

describe("superviseChild", () => {
  it("restarts a child that dies, with growing delays, and stops it for good on stop()", async () => {
    const lines: string[] = [];
    const pids: number[] = [];
    // A child that exits with code 3 after 50 ms, every time.
    const supervised = superviseChild(
      { name: "flaky", command: process.execPath, args: ["-e", "setTimeout(() => process.exit(3), 50)"], env: {} },
      (line) => lines.push(line),
      { initialMs: 20, maxMs: 1_000 },
      (child) => pids.push(child.pid),
    );
    await waitFor("three restarts", async () => pids.length >= 4, { timeoutMs: 5_000 });
    await supervised.stop();
    const restarts = lines.filter((line) => line.startsWith("flaky exited with code 3; restarting in"));
    expect(restarts.slice(0, 3)).toEqual([
      "flaky exited with code 3; restarting in 20 ms",
      "flaky exited with code 3; restarting in 40 ms",
      "flaky exited with code 3; restarting in 80 ms",
    ]);
    const count = pids.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pids.length).toBe(count);
  });

  it("stops a long-running child and its descendants", async () => {
    const supervised = superviseChild(
      {
        name: "parent",
        command: process.execPath,
        // The parent forks a grandchild, as `next start` does.
        args: ["-e", "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); setInterval(() => {}, 1000)"],
        env: {},
      },
      () => undefined,
    );
    const pid = supervised.current().pid;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await supervised.stop();
    expect(() => process.kill(-pid, 0)).toThrow();
  });
});
