// Health of every component the platform needs, checked in parallel with a deadline each.
export type ComponentHealth = { ok: boolean; latencyMs: number; error?: string };
export type PartState = "up" | "down";
export type Health = {
  ok: boolean;
  /** At a glance, by the names docs/api.md gives the parts: which one is down. */
  parts: { database: PartState; engine: PartState; worker: PartState };
  components: { db: ComponentHealth; restate: ComponentHealth; worker: ComponentHealth };
};

export type HealthChecks = Record<keyof Health["components"], () => Promise<boolean>>;

async function probe(check: () => Promise<boolean>, timeoutMs: number): Promise<ComponentHealth> {
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const isOk = await Promise.race([check(), timeout]);
    const latencyMs = Math.round(performance.now() - startedAt);
    return isOk ? { ok: true, latencyMs } : { ok: false, latencyMs, error: "unhealthy" };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - startedAt);
    return { ok: false, latencyMs, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export async function getHealth({
  checks,
  timeoutMs = 2_000,
}: {
  checks: HealthChecks;
  timeoutMs?: number;
}): Promise<Health> {
  const [db, restate, worker] = await Promise.all([
    probe(checks.db, timeoutMs),
    probe(checks.restate, timeoutMs),
    probe(checks.worker, timeoutMs),
  ]);
  const state = (component: ComponentHealth): PartState => (component.ok ? "up" : "down");
  return {
    ok: db.ok && restate.ok && worker.ok,
    parts: { database: state(db), engine: state(restate), worker: state(worker) },
    components: { db, restate, worker },
  };
}
