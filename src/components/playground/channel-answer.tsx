import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ChannelAnswer } from "./channel-call";

const toneOf = (status: number) => (status < 300 ? "good" : status < 500 ? "warn" : "bad");

type Props = {
  answer: ChannelAnswer;
  slug: string;
  /** Opens a session the answer names (`sessionId`); without it the answer links to the playground. */
  onOpenSession?: (sessionId: string) => void;
};

/** A channel route's answer: status, the headers worth a look, the body (pretty when JSON). */
export function ChannelAnswerView({ answer, slug, onOpenSession }: Props) {
  const body = answer.json === undefined ? answer.text : JSON.stringify(answer.json, null, 2);
  const sessionId = sessionIdIn(answer.json);
  return (
    <div className="space-y-2" data-testid="channel-answer" data-status={answer.status}>
      <p className="flex items-center gap-2 text-sm">
        <Badge tone={toneOf(answer.status)}>
          <span data-testid="channel-answer-status">{answer.status}</span>
          {answer.statusText ? ` ${answer.statusText}` : ""}
        </Badge>
        <span className="text-xs text-zinc-500">{answer.ms} ms</span>
      </p>
      {answer.headers.length > 0 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 font-mono text-xs text-zinc-600 dark:text-zinc-400">
          {answer.headers.map(([name, value]) => (
            <div key={name} className="contents">
              <dt>{name}</dt>
              <dd className="break-all">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <pre
        data-testid="channel-answer-body"
        className="max-h-72 overflow-auto rounded bg-zinc-100 p-2 text-xs break-words whitespace-pre-wrap dark:bg-zinc-950"
      >
        {body || "(empty body)"}
      </pre>
      {sessionId ? <SessionLink slug={slug} sessionId={sessionId} onOpen={onOpenSession} /> : null}
    </div>
  );
}

function sessionIdIn(json: unknown): string | undefined {
  const id = (json as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === "string" && id.startsWith("ses_") ? id : undefined;
}

function SessionLink({ slug, sessionId, onOpen }: { slug: string; sessionId: string; onOpen?: (id: string) => void }) {
  const label = `Open session ${sessionId}`;
  return onOpen ? (
    <Button variant="secondary" size="sm" data-testid="answer-open-session" onClick={() => onOpen(sessionId)}>
      {label}
    </Button>
  ) : (
    <a
      data-testid="answer-open-session"
      className="text-sm text-indigo-600 hover:underline dark:text-indigo-400"
      href={`/${encodeURIComponent(slug)}/playground?sessionId=${encodeURIComponent(sessionId)}`}
    >
      {label}
    </a>
  );
}
