import { describe, expect, it } from "vitest";
import { dueFirings } from "./due-firings";

const at = (iso: string) => new Date(iso);
const every5 = { name: "digest", cron: "*/5 * * * *" };

describe("dueFirings", () => {
  it("starts a schedule it has not seen at now, firing nothing from before", () => {
    const plan = dueFirings([every5], [], at("2026-11-29T10:02:30Z"));
    expect(plan.fire).toEqual([]);
    expect(plan.advance).toEqual([{ name: "digest", lastDueAt: at("2026-11-29T10:02:30Z") }]);
    expect(plan.nextDueAt).toEqual(at("2026-11-29T10:05:00Z"));
  });

  it("fires once per due time", () => {
    const plan = dueFirings(
      [every5],
      [{ name: "digest", paused: false, lastDueAt: at("2026-11-29T10:00:00Z") }],
      at("2026-11-29T10:05:01Z"),
    );
    expect(plan.fire).toEqual([{ name: "digest", dueAt: at("2026-11-29T10:05:00Z"), missed: 0 }]);
    expect(plan.advance).toEqual([{ name: "digest", lastDueAt: at("2026-11-29T10:05:00Z") }]);
    expect(plan.nextDueAt).toEqual(at("2026-11-29T10:10:00Z"));
  });

  it("folds due times missed while everything was down into one late firing", () => {
    const plan = dueFirings(
      [every5],
      [{ name: "digest", paused: false, lastDueAt: at("2026-11-29T10:00:00Z") }],
      at("2026-11-29T10:31:00Z"),
    );
    expect(plan.fire).toEqual([{ name: "digest", dueAt: at("2026-11-29T10:30:00Z"), missed: 5 }]);
  });

  it("skips the due times of a paused schedule without firing them later", () => {
    const plan = dueFirings(
      [every5],
      [{ name: "digest", paused: true, lastDueAt: at("2026-11-29T10:00:00Z") }],
      at("2026-11-29T10:31:00Z"),
    );
    expect(plan.fire).toEqual([]);
    expect(plan.advance).toEqual([{ name: "digest", lastDueAt: at("2026-11-29T10:30:00Z") }]);
  });

  it("sleeps until the earliest schedule is due", () => {
    const hourly = { name: "report", cron: "0 * * * *" };
    const states = [
      { name: "digest", paused: false, lastDueAt: at("2026-11-29T10:05:00Z") },
      { name: "report", paused: false, lastDueAt: at("2026-11-29T10:00:00Z") },
    ];
    expect(dueFirings([every5, hourly], states, at("2026-11-29T10:06:00Z")).nextDueAt).toEqual(
      at("2026-11-29T10:10:00Z"),
    );
  });
});
