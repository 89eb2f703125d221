import { headers } from "next/headers";
import Link from "next/link";
import { AppShell } from "@/components/shell/app-shell";
import { HomeDashboard } from "@/components/home/home-dashboard";
import { readSessionUserId } from "@/server/auth/dashboard-session";
import { getHealth, type ComponentHealth } from "@/server/health/get-health";
import { platformChecks } from "@/server/health/platform-checks";

export const dynamic = "force-dynamic";

const componentLabels = { db: "Postgres", restate: "Restate", worker: "Worker" } as const;

function StatusDot({ isOk }: { isOk: boolean }) {
  return (
    <span aria-hidden className={`inline-block h-2.5 w-2.5 rounded-full ${isOk ? "bg-emerald-500" : "bg-rose-500"}`} />
  );
}

function ComponentRow({ name, health }: { name: keyof typeof componentLabels; health: ComponentHealth }) {
  return (
    <li data-testid={`component-${name}`} data-ok={health.ok} className="flex items-center gap-3 py-2">
      <StatusDot isOk={health.ok} />
      <span className="w-24 font-medium">{componentLabels[name]}</span>
      <span className="text-sm text-zinc-500 dark:text-zinc-400">
        {health.ok ? `ok · ${health.latencyMs} ms` : `down · ${health.error ?? "unhealthy"}`}
      </span>
    </li>
  );
}

function PlatformStatus({ health }: { health: Awaited<ReturnType<typeof getHealth>> }) {
  const names = Object.keys(componentLabels) as (keyof typeof componentLabels)[];
  return (
    <section
      aria-label="Platform status"
      className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Platform status</h2>
        <span
          data-testid="platform-status"
          className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${
            health.ok
              ? "bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300"
              : "bg-rose-50 text-rose-700"
          }`}
        >
          {health.ok ? "All systems running" : "Degraded"}
        </span>
      </div>
      <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
        {names.map((name) => (
          <ComponentRow key={name} name={name} health={health.components[name]} />
        ))}
      </ul>
      <p className="mt-3 text-xs text-zinc-400">
        Machine-readable:{" "}
        <a className="underline" href="/v1/health">
          /v1/health
        </a>
      </p>
    </section>
  );
}

export default async function HomePage() {
  const [health, userId] = await Promise.all([
    getHealth({ checks: platformChecks() }),
    readSessionUserId(await headers()),
  ]);
  if (userId) {
    return (
      <AppShell>
        <h1 className="sr-only" data-testid="home-title">
          Agentfold
        </h1>
        <HomeDashboard />
        <div className="mt-8 max-w-xl">
          <PlatformStatus health={health} />
        </div>
      </AppShell>
    );
  }
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight" data-testid="home-title">
        Agentfold
      </h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">
        Run agents defined as folders of Markdown and TypeScript: durable sessions, replayable event streams, approvals,
        schedules and a playground for each.
      </p>
      <div className="mt-6 flex gap-3">
        <Link
          href="/signin"
          className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500"
          data-testid="home-signin"
        >
          Sign in
        </Link>
      </div>
      <div className="mt-10">
        <PlatformStatus health={health} />
      </div>
    </main>
  );
}
