import { describe, expect, it } from "vitest";
import { createStepProgress, formatBytes } from "./step-progress";

function recorder(isTTY: boolean) {
  let text = "";
  let clock = 0;
  const progress = createStepProgress({ write: (t) => (text += t), isTTY, now: () => (clock += 100) });
  return { progress, text: () => text };
}

describe("step progress", () => {
  it("prints one plain line per finished step when stderr is not a terminal", () => {
    const { progress, text } = recorder(false);
    progress.start("packing");
    progress.done("3 files, 1.0 KiB");
    progress.start("uploading");
    progress.update("512 B / 1.0 KiB");
    progress.start("bundling");
    progress.fail("2 errors");
    expect(text()).toBe("✓ packing  3 files, 1.0 KiB  0.1 s\n✓ uploading  0.1 s\n✗ bundling  2 errors  0.1 s\n");
    expect(text()).not.toContain("\r");
  });

  it("rewrites one line in place at a terminal and keeps it when the step ends", () => {
    const { progress, text } = recorder(true);
    progress.start("uploading", "0 B / 2.0 KiB");
    progress.update("1.0 KiB / 2.0 KiB");
    progress.done("2.0 KiB");
    expect(text()).toBe(
      "\r\x1b[2K… uploading  0 B / 2.0 KiB\r\x1b[2K… uploading  1.0 KiB / 2.0 KiB\r\x1b[2K✓ uploading  2.0 KiB  0.1 s\n",
    );
  });

  it("says sizes the way people read them", () => {
    expect([formatBytes(12), formatBytes(40_960), formatBytes(3 * 1024 * 1024)]).toEqual([
      "12 B",
      "40.0 KiB",
      "3.0 MiB",
    ]);
  });
});
