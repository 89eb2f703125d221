import { describe, expect, it } from "vitest";
import { superviseChild } from "./supervised";
import { sleep, waitFor } from "./wait";

const node = (script: string) => ({ command: process.execPath, args: ["-e", script], env: {} });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("superviseChild", () => {
  it("restarts a child that dies, with growing delays, and stops it for good on stop()", async () => {
    const lines: string[] = [];
    const pids: number[] = [];
    // A child that exits with code 3 after 50 ms, every time.
    const supervised = superviseChild(
      { name: "flaky", ...node("setTimeout(() => process.exit(3), 50)") },
      (line) => lines.push(line),
      {
        policy: { initialMs: 20, maxMs: 1_000, limit: 10 },
        onStart: (child) => pids.push(child.pid),
      },
    );
    await waitFor("three restarts", async () => pids.length >= 4, { timeoutMs: 5_000 });
    await supervised.stop();
    const restarts = lines.filter((line) => line.includes(" exited with code 3 after "));
    expect(restarts.slice(0, 3).map((line) => line.replace(/after \d+ ms;/, "after N ms;"))).toEqual([
      `flaky (pid ${pids[0]}) exited with code 3 after N ms; restart 1 of 10 within 60 s, in 20 ms`,
      `flaky (pid ${pids[1]}) exited with code 3 after N ms; restart 2 of 10 within 60 s, in 40 ms`,
      `flaky (pid ${pids[2]}) exited with code 3 after N ms; restart 3 of 10 within 60 s, in 80 ms`,
    ]);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^flaky restarted \\(pid ${pids[1]}\\), ready after \\d+ ms$`)),
    );
    const count = pids.length;
    await sleep(300);
    expect(pids.length).toBe(count);
  });

  it("gives up on a child that dies more often than the limit allows, quoting its last output", async () => {
    const lines: string[] = [];
    const pids: number[] = [];
    let gaveUp = 0;
    const supervised = superviseChild(
      {
        name: "broken",
        ...node("console.error('starting'); console.error('FATAL: port 5433 is taken'); process.exit(1)"),
      },
      (line) => lines.push(line),
      {
        policy: { initialMs: 10, limit: 2, windowMs: 60_000 },
        onStart: (child) => pids.push(child.pid),
        onGiveUp: () => gaveUp++,
      },
    );
    await waitFor("the supervisor to give up", async () => gaveUp > 0, { timeoutMs: 5_000 });
    await sleep(200);
    // The first run and the two restarts the limit allows; nothing after.
    expect(pids).toHaveLength(3);
    expect(gaveUp).toBe(1);
    const giveUp = lines.findIndex((line) => line.includes("it died 3 times"));
    expect(lines.slice(giveUp)).toEqual([
      `broken (pid ${pids[2]}) exited with code 1 after ${lines[giveUp]!.match(/after (\d+ ms)/)![1]}: it died 3 times within 60 s, more than the 2 restarts allowed (AGENTFOLD_RESTART_LIMIT); stopping Agentfold`,
      "last output of broken:",
      "  starting",
      "  FATAL: port 5433 is taken",
    ]);
    await supervised.stop();
  });

  it("fails start-up without restarting when the first run dies before it is ready", async () => {
    const pids: number[] = [];
    const supervised = superviseChild(
      { name: "db", ...node("console.error('bad setting'); process.exit(2)") },
      () => undefined,
      {
        waitUntilReady: () => new Promise<void>(() => undefined),
        onStart: (child) => pids.push(child.pid),
      },
    );
    await expect(supervised.ready).rejects.toThrow(
      "db exited with code 2 during start-up\nlast output of db:\n  bad setting",
    );
    await sleep(400);
    expect(pids).toHaveLength(1);
  });

  it("kills what a dead child left in its process group before it restarts it", async () => {
    const lines: string[] = [];
    // The parent forks a grandchild (as Postgres forks backends), prints its pid and dies.
    const script =
      "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('grandchild ' + c.pid); setTimeout(() => process.exit(1), 100)";
    const supervised = superviseChild({ name: "parent", ...node(script) }, (line) => lines.push(line), {
      policy: { initialMs: 10, limit: 10 },
    });
    await waitFor("a restart", async () => lines.some((line) => line.startsWith("parent restarted")), {
      timeoutMs: 5_000,
    });
    const first = Number(lines.find((line) => line.startsWith("[parent] grandchild"))!.split(" ")[2]);
    expect(isAlive(first)).toBe(false);
    await supervised.stop();
  });

  it("stops a long-running child and its descendants", async () => {
    const supervised = superviseChild(
      {
        name: "parent",
        // The parent forks a grandchild, as `next start` does.
        ...node(
          "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); setInterval(() => {}, 1000)",
        ),
      },
      () => undefined,
    );
    const pid = supervised.current().pid;
    await sleep(200);
    await supervised.stop();
    expect(() => process.kill(-pid, 0)).toThrow();
  });
});
