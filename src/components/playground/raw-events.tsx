import type { SessionEvent } from "@/agents/sdk/events";

/** The session's events exactly as the stream sent them, one JSON line each. */
export function RawEvents({ events }: { events: SessionEvent[] }) {
  return (
    <aside id="raw-events" data-testid="raw-events" aria-label="Raw events" className="flex h-full min-h-0 flex-col">
      <h2 className="border-b border-zinc-200 px-3 py-2 text-sm font-semibold dark:border-zinc-800">
        Raw events <span className="font-normal text-zinc-500">({events.length})</span>
      </h2>
      {events.length === 0 ? (
        <p className="p-3 text-sm text-zinc-500">
          No events yet. Open a session or send a message; every event of its stream shows here.
        </p>
      ) : (
        <ol className="min-h-0 flex-1 space-y-1 overflow-auto p-2 font-mono text-[11px]">
          {events.map((event) => (
            <li
              key={event.index}
              data-testid="raw-event"
              data-type={event.type}
              className="rounded bg-zinc-100 p-1.5 break-all dark:bg-zinc-950"
            >
              {JSON.stringify(event)}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
