import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "./descriptor";
import { cronProblem, defineSchedule, nextCronRun } from "./schedules";
import { definitionMessages } from "./test-support";

describe("defineSchedule", () => {
  it("accepts the markdown form and the run form, always in UTC", () => {
    const daily = defineSchedule({ cron: "0 9 * * 1-5", markdown: "Summarize open incidents." });
    expect(descriptorKindOf(daily)).toBe("schedule");
    expect(daily).toMatchObject({ cron: "0 9 * * 1-5", markdown: "Summarize open incidents.", timezone: "UTC" });
    const run = async () => {};
    expect(defineSchedule({ cron: "*/30 * * * *", run }).run).toBe(run);
  });

  it("requires exactly one of markdown or run", () => {
    expect(
      definitionMessages(() => defineSchedule({ cron: "* * * * *", markdown: "x", run: () => {} } as never)),
    ).toEqual(["defineSchedule: give exactly one of markdown or run (got both)"]);
    expect(definitionMessages(() => defineSchedule({ cron: "* * * * *" } as never))).toEqual([
      "defineSchedule: give exactly one of markdown or run (got neither)",
    ]);
  });

  it("names a bad cron expression", () => {
    expect(definitionMessages(() => defineSchedule({ cron: "61 * * * *", markdown: "x" }))).toEqual([
      "defineSchedule: cron: Invalid value for minute: 61",
    ]);
    expect(definitionMessages(() => defineSchedule({ cron: "0 0 * * * *", markdown: "x" }))).toEqual([
      "defineSchedule: cron: expected 5 fields (minute hour day-of-month month day-of-week), got 6",
    ]);
    expect(definitionMessages(() => defineSchedule({ markdown: "x" } as never))).toEqual([
      "defineSchedule: cron: is required",
    ]);
  });

  it("refuses another time zone and empty markdown", () => {
    expect(
      definitionMessages(() => defineSchedule({ cron: "0 9 * * *", markdown: " ", timezone: "Europe/Paris" } as never)),
    ).toEqual([
      "defineSchedule: markdown: must not be empty",
      "defineSchedule: timezone: schedules run in UTC; write the cron expression in UTC",
    ]);
  });
});

describe("cron helpers", () => {
  it("accepts 5-field expressions and nicknames, refuses ones that never fire", () => {
    expect(cronProblem("0 9 * * MON-FRI")).toBeUndefined();
    expect(cronProblem("@daily")).toBeUndefined();
    expect(cronProblem("0 0 31 2 *")).toBe("never matches a date");
    expect(cronProblem("every day")).toBe("expected 5 fields (minute hour day-of-month month day-of-week), got 2");
  });

  it("computes the next firing in UTC", () => {
    const after = new Date("2024-01-01T10:15:00.000Z");
    expect(nextCronRun("0 9 * * *", after)?.toISOString()).toBe("2024-01-02T09:00:00.000Z");
    expect(nextCronRun("*/30 * * * *", after)?.toISOString()).toBe("2024-01-01T10:30:00.000Z");
    expect(nextCronRun("0 0 31 2 *", after)).toBeUndefined();
  });
});
