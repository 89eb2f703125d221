import type { Diagnostic } from "@/agents/loader/diagnostics";
import { Badge } from "@/components/ui/badge";

/** Validation findings, one per line: level, file (and line), message. */
export function DiagnosticsList({ diagnostics }: { diagnostics: Diagnostic[] }) {
  if (diagnostics.length === 0)
    return <p className="text-sm text-emerald-700 dark:text-emerald-400">No problems found.</p>;
  return (
    <ul className="space-y-1.5" data-testid="diagnostics">
      {diagnostics.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list rendered once from one validation, never reordered.
        <li key={i} className="flex items-start gap-2 text-sm">
          <Badge tone={d.level === "error" ? "bad" : "warn"}>{d.level}</Badge>
          {d.file ? (
            <code className="font-mono text-xs text-zinc-500">{d.line ? `${d.file}:${d.line}` : d.file}</code>
          ) : null}
          <span>{d.message}</span>
        </li>
      ))}
    </ul>
  );
}
