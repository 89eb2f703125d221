import { describe, expect, it } from "vitest";
import { getHealth } from "./get-health";

const up = async () => true;

describe("getHealth", () => {
  it("is ok only when every component is", async () => {
    const health = await getHealth({ checks: { db: up, restate: up, worker: up } });
    expect(health.ok).toBe(true);
    expect(health.parts).toEqual({ database: "up", engine: "up", worker: "up" });
    const degraded = await getHealth({ checks: { db: up, restate: up, worker: async () => false } });
    expect(degraded.ok).toBe(false);
    expect(degraded.components.worker).toMatchObject({ ok: false, error: "unhealthy" });
    expect(degraded.components.db.ok).toBe(true);
    expect(degraded.parts).toEqual({ database: "up", engine: "up", worker: "down" });
  });

  it("reports a thrown error and a hung check as down", async () => {
    const health = await getHealth({
      timeoutMs: 50,
      checks: {
        db: async () => {
          throw new Error("connection refused");
        },
        restate: () => new Promise<boolean>(() => undefined),
        worker: up,
      },
    });
    expect(health.components.db).toMatchObject({ ok: false, error: "connection refused" });
    expect(health.components.restate).toMatchObject({ ok: false, error: "no answer within 50 ms" });
    expect(health.parts).toEqual({ database: "down", engine: "down", worker: "up" });
    expect(health.ok).toBe(false);
  });
});
