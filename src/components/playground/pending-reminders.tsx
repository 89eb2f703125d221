"use client";
// Reminders the agent set in this session (docs/schedules.md, "Reminders"): when each fires and
// what it will say, with a way to cancel it. Re-read when a turn starts or ends (a remind call runs
// in a turn, and a reminder that fires starts one).
import { useCallback, useEffect, useState } from "react";
import type { ApiClient } from "./api-client";

type Reminder = { id: string; fireAt: string; prompt: string };

export function PendingReminders({
  client,
  sessionId,
  version,
}: {
  client: ApiClient;
  sessionId: string;
  version: string;
}) {
  const [reminders, setReminders] = useState<Reminder[]>([]);
  const [error, setError] = useState<string>();
  const path = `/session/${encodeURIComponent(sessionId)}/reminders`;
  const load = useCallback(
    (signal?: AbortSignal) =>
      client
        .json<{ reminders: Reminder[] }>("GET", path, { signal })
        .then((body) => setReminders(body.reminders))
        .catch(
          (caught: unknown) => signal?.aborted || setError(caught instanceof Error ? caught.message : String(caught)),
        ),
    [client, path],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the trigger: a new one means reload.
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load, version]);

  async function cancel(id: string) {
    setError(undefined);
    await client
      .json("DELETE", `${path}/${encodeURIComponent(id)}`)
      .catch((caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)));
    await load();
  }

  if (reminders.length === 0 && !error) return null;
  return (
    <section
      className="border-b border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
      data-testid="reminders"
      aria-label="Pending reminders"
    >
      {error ? (
        <p role="alert" className="text-rose-600">
          {error}
        </p>
      ) : null}
      <ul className="space-y-1">
        {reminders.map((reminder) => (
          <li key={reminder.id} className="flex flex-wrap items-center gap-2" data-testid="reminder">
            <span aria-hidden>⏰</span>
            <span className="text-zinc-500">{new Date(reminder.fireAt).toLocaleString()}</span>
            <span className="min-w-0 flex-1 truncate">{reminder.prompt}</span>
            <button
              type="button"
              onClick={() => cancel(reminder.id)}
              className="text-xs text-zinc-500 underline hover:text-zinc-900 dark:hover:text-zinc-100"
            >
              Cancel reminder
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
