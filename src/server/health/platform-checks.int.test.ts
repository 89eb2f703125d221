import { afterAll, describe, expect, inject, it } from "vitest";
import { parseEnv } from "@/env";
import { createDb } from "@/server/db";
import { getHealth } from "./get-health";
import { platformChecks } from "./platform-checks";

const database = createDb(inject("databaseUrl"));
afterAll(() => database.$disconnect());

describe("platform health checks", () => {
  it("sees the database and Restate up, and a worker that is not running as down", async () => {
    const config = parseEnv({
      DATABASE_URL: inject("databaseUrl"),
      RESTATE_INGRESS_URL: inject("restateIngressUrl"),
      RESTATE_ADMIN_URL: inject("restateAdminUrl"),
      WORKER_URL: "http://127.0.0.1:9",
    });
    const health = await getHealth({ checks: platformChecks({ config, database: () => database }) });
    expect(health.components.db.ok).toBe(true);
    expect(health.components.restate.ok).toBe(true);
    expect(health.components.worker.ok).toBe(false);
    expect(health.ok).toBe(false);
  });

  it("sees an unreachable database as down", async () => {
    const unreachable = createDb("postgresql://nobody:x@127.0.0.1:9/none");
    const config = parseEnv({ DATABASE_URL: "postgresql://nobody:x@127.0.0.1:9/none" });
    const health = await getHealth({ checks: platformChecks({ config, database: () => unreachable }) });
    expect(health.components.db.ok).toBe(false);
    expect(health.components.db.error).toMatch(/^Raw query failed\. .*Can't reach database server at 127\.0\.0\.1:9/);
    expect(health.parts.database).toBe("down");
  });
});
