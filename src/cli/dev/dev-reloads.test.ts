import { describe, expect, it } from "vitest";
import { createReloads } from "./dev-reloads";

describe("createReloads", () => {
  it("loads one at a time; a burst for an agent during a load makes one more load of it", async () => {
    const log: string[] = [];
    let release: () => void = () => undefined;
    const reloads = createReloads(
      async (key, reason) => {
        log.push(`start ${key} ${reason}`);
        if (reason === "first") await new Promise<void>((resolve) => (release = resolve));
        log.push(`end ${key}`);
      },
      () => undefined,
    );
    reloads.request("a", "first");
    reloads.request("a", "save 1");
    reloads.request("b", "save");
    reloads.request("a", "save 2");
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await reloads.idle();
    expect(log).toEqual(["start a first", "end a", "start a save 2", "end a", "start b save", "end b"]);
  });

  it("reports a failed load and goes on with the next", async () => {
    const failures: string[] = [];
    const loaded: string[] = [];
    const reloads = createReloads(
      async (key) => {
        if (key === "bad") throw new Error("boom");
        loaded.push(key);
      },
      (key, error) => failures.push(`${key}: ${(error as Error).message}`),
    );
    reloads.request("bad", "x");
    reloads.request("good", "x");
    await reloads.idle();
    expect(failures).toEqual(["bad: boom"]);
    expect(loaded).toEqual(["good"]);
  });
});
