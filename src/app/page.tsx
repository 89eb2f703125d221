import { getHealth, type ComponentHealth } from "@/server/health/get-health";
import { platformChecks } from "@/server/health/platform-checks";

export const dynamic = "force-dynamic";

const componentLabels = { db: "Postgres", restate: "Restate", worker: "Worker" } as const;

function StatusDot({ isOk }: { isOk: boolean }) {
  return (
    <span
      aria-hidden
      className={`inline-block h-2.5 w-2.5 rounded-full ${isOk ? "bg-emerald-500" : "bg-rose-500"}`}
    />
  );
}

function ComponentRow({ name, health }: { name: keyof typeof componentLabels; health: ComponentHealth }) {
  return (
    <li data-testid={`component-${name}`} data-ok={health.ok} className="flex items-center gap-3 py-2">
      <StatusDot isOk={health.ok} />
      <span className="w-24 font-medium">{componentLabels[name]}</span>
      <span className="text-sm text-zinc-500">
        {health.ok ? `ok · ${health.latencyMs} ms` : `down · ${health.error ?? "unhealthy"}`}
      </span>
    </li>
  );
}

export default async function HomePage() {
  const health = await getHealth({ checks: platformChecks() });
  const names = Object.keys(componentLabels) as (keyof typeof componentLabels)[];
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight" data-testid="home-title">
        Agentfold
      </h1>
      <p className="mt-3 text-zinc-600">
        Run agents defined as folders of Markdown and TypeScript: durable sessions, replayable
        event streams, approvals, schedules and a playground for each.
      </p>
      <section className="mt-10 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm">
        <div className="flex items-center justify-between">
          <h2 className="font-semibold">Platform status</h2>
          <span
            data-testid="platform-status"
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${
              health.ok ? "bg-emerald-50 text-emerald-700" : "bg-rose-50 text-rose-700"
            }`}
          >
            {health.ok ? "All systems running" : "Degraded"}
          </span>
        </div>
        <ul className="mt-3 divide-y divide-zinc-100">
          {names.map((name) => (
            <ComponentRow key={name} name={name} health={health.components[name]} />
          ))}
        </ul>
        <p className="mt-3 text-xs text-zinc-400">
          Machine-readable: <a className="underline" href="/v1/health">/v1/health</a>
        </p>
      </section>
    </main>
  );
}
