/** A JSON value (or plain text) as a scrollable, wrapped block. */
export function JsonBlock({ label, value }: { label: string; value: unknown }) {
  const text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "(nothing)");
  return (
    <div>
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <pre className="mt-1 max-h-72 overflow-auto rounded bg-zinc-100 p-2 text-xs break-words whitespace-pre-wrap dark:bg-zinc-950">
        {text}
      </pre>
    </div>
  );
}
