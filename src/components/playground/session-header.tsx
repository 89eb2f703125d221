import { Badge } from "@/components/ui/badge";
import type { ApiClient } from "./api-client";
import { EvalDraftButton } from "./eval-draft-dialog";
import type { StreamStatus } from "./follow-session-stream";
import type { SessionInfo } from "./transcript";

const streamLabel: Record<StreamStatus, { text: string; tone: "good" | "warn" | "bad" | "neutral" } | undefined> = {
  idle: undefined,
  connecting: { text: "connecting", tone: "neutral" },
  live: { text: "live", tone: "good" },
  reconnecting: { text: "reconnecting", tone: "warn" },
  ended: { text: "ended", tone: "neutral" },
  failed: { text: "not connected", tone: "bad" },
};

/** Which session is open, what kind it is, and whether its stream is connected. */
export function SessionHeader({
  client,
  sessionId,
  info,
  status,
}: {
  client: ApiClient;
  sessionId: string;
  info?: SessionInfo;
  status: StreamStatus;
}) {
  const stream = streamLabel[status];
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
      data-testid="session-header"
    >
      <span className="min-w-0 truncate font-medium">{info?.title || "Untitled session"}</span>
      <code className="text-xs text-zinc-500 select-all">{sessionId}</code>
      {info?.mode === "task" ? <Badge tone="info">task</Badge> : null}
      {info?.purpose === "eval" ? (
        <span data-testid="session-purpose-eval">
          <Badge tone="info">eval</Badge>
        </span>
      ) : null}
      {info?.dryRun ? <Badge tone="warn">dry run: writes are stubbed</Badge> : null}
      <span className="ml-auto flex items-center gap-2">
        {stream ? (
          <span data-testid="stream-status" data-status={status}>
            <Badge tone={stream.tone}>{stream.text}</Badge>
          </span>
        ) : null}
        <EvalDraftButton client={client} sessionId={sessionId} />
      </span>
      {/* How this version's model runs here, when not as written (a Cursor id, ignored params). */}
      {info?.notes?.map((note) => (
        <span key={note} data-testid="session-note" className="basis-full text-xs text-amber-700 dark:text-amber-400">
          {note}
        </span>
      ))}
    </div>
  );
}
