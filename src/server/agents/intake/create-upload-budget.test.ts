import { describe, expect, it } from "vitest";
import { createUploadBudget } from "./create-upload-budget";
import { defaultUploadLimits, resolveUploadLimits } from "./upload-limits";

const mebibyte = 1024 * 1024;

describe("createUploadBudget", () => {
  it("throws on the entry that crosses maxFiles, not before", () => {
    const budget = createUploadBudget({ limits: defaultUploadLimits, archiveBytes: mebibyte });
    for (let i = 0; i < 5_000; i += 1) budget.countEntry();
    expect(() => budget.countEntry()).toThrow("archive has more than 5000 files");
  });

  it("throws on the chunk that crosses maxTotalBytes, not before", () => {
    const budget = createUploadBudget({ limits: defaultUploadLimits, archiveBytes: 40 * mebibyte });
    budget.countFileBytes(50 * mebibyte);
    expect(() => budget.countFileBytes(1)).toThrow("archive expands to more than 50 MiB");
  });

  it("throws on the chunk that crosses the compression ratio, not before", () => {
    const budget = createUploadBudget({ limits: defaultUploadLimits, archiveBytes: 1000 });
    budget.countFileBytes(100 * 1000);
    expect(() => budget.countFileBytes(1)).toThrow("compression ratio over 100:1 (possible archive bomb)");
  });

  it("caps raw tar bytes with room for headers but not for a header bomb", () => {
    const limits = resolveUploadLimits({ maxFiles: 10, maxTotalBytes: mebibyte });
    const budget = createUploadBudget({ limits, archiveBytes: mebibyte });
    budget.countTarBytes(mebibyte + 10 * 4096);
    expect(() => budget.countTarBytes(mebibyte)).toThrow("archive expands to more than 1 MiB");
  });
});

describe("resolveUploadLimits", () => {
  it("keeps the defaults for missing or undefined overrides", () => {
    expect(resolveUploadLimits()).toEqual({
      maxFiles: 5_000,
      maxTotalBytes: 50 * mebibyte,
      maxRatio: 100,
      maxArchiveBytes: 50 * mebibyte,
    });
    expect(resolveUploadLimits({ maxFiles: undefined, maxRatio: 10 })).toMatchObject({
      maxFiles: 5_000,
      maxRatio: 10,
    });
  });

  it("refuses a limit that would disable its check", () => {
    expect(() => resolveUploadLimits({ maxTotalBytes: Number.NaN })).toThrow("maxTotalBytes");
    expect(() => resolveUploadLimits({ maxFiles: 0 })).toThrow("maxFiles");
  });
});
