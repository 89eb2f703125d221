import { describe, expect, it } from "vitest";
import { createUploadSlots } from "./upload-slots";

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("createUploadSlots", () => {
  it("runs two, queues six in order, and refuses the ninth at once with 503", async () => {
    const slots = createUploadSlots();
    const started: number[] = [];
    const frees: (() => void)[] = [];
    for (let i = 0; i < 8; i++) void slots.enter().then((free) => (started.push(i), frees.push(free)));
    await settled();
    expect(started).toEqual([0, 1]);
    expect(slots.load()).toEqual({ running: 2, waiting: 6 });
    await expect(slots.enter()).rejects.toMatchObject({
      code: "unavailable",
      status: 503,
      message: "2 uploads are running and 6 waiting; try again in a minute",
    });
    // Freeing twice frees one slot: the third starts, the fourth still waits.
    frees[0]!();
    frees[0]!();
    await settled();
    expect(started).toEqual([0, 1, 2]);
    expect(slots.load()).toEqual({ running: 2, waiting: 5 });
    for (let i = 1; i < 8; i++) {
      frees[i]!();
      await settled();
    }
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
    // Room again once they are done.
    (await slots.enter())();
  });
});
