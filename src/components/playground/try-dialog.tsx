"use client";
// The Try modal of one channel route: its inputs as JSON (the last ones sent, remembered per
// route), Send, the answer, and the same request as a curl command with the token as a variable.
import { useMemo, useState } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { ChannelAnswerView } from "./channel-answer";
import { curlCommand } from "./channel-call";
import type { ChannelRoute } from "./channel-routes";
import { lastDraft } from "./route-drafts";
import { InputError, initialInputs, requestOf } from "./route-input-state";
import { RouteInputs } from "./route-inputs";
import { useRouteCall } from "./use-route-call";

type Props = {
  slug: string;
  token: string;
  route: ChannelRoute;
  onClose: () => void;
  /** Opens a session an answer names (`sessionId`); without it the answer links to the playground. */
  onOpenSession?: (sessionId: string) => void;
};

export function TryDialog({ slug, token, route, onClose, onOpenSession }: Props) {
  const [inputs, setInputs] = useState(() => initialInputs(route, lastDraft(slug, route.key), false));
  const call = useRouteCall(slug, token);
  const built = useMemo(() => {
    try {
      return { request: requestOf(route, inputs) };
    } catch (error) {
      return { error: error instanceof InputError ? error.message : String(error) };
    }
  }, [route, inputs]);
  const curl = built.request ? curlCommand(window.location.origin, slug, built.request) : undefined;
  return (
    <Dialog open onClose={onClose} title={`Try ${route.method} ${route.path}`}>
      <div data-testid="try-dialog" data-route={route.key} className="space-y-4">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Channel <code className="font-mono">{route.channel}</code>
          {route.description ? ` — ${route.description}` : ""}
        </p>
        <RouteInputs inputs={inputs} onChange={setInputs} />
        {built.error ? <ErrorNote testId="try-input-error">{built.error}</ErrorNote> : null}
        <div className="flex justify-end">
          <Button
            data-testid="try-send"
            disabled={!built.request || call.isSending}
            onClick={() => built.request && void call.send(built.request)}
          >
            {call.isSending ? "Sending…" : "Send"}
          </Button>
        </div>
        {call.error ? <ErrorNote testId="try-error">{call.error}</ErrorNote> : null}
        {call.answer ? <ChannelAnswerView answer={call.answer} slug={slug} onOpenSession={onOpenSession} /> : null}
        {curl ? (
          <div className="space-y-1">
            <div className="flex items-center justify-between">
              <p className="text-xs font-medium text-zinc-500">
                curl (set <code className="font-mono">AGENTFOLD_TOKEN</code> to a token with channels:invoke)
              </p>
              <CopyButton text={curl} label="Copy curl" testId="try-copy-curl" />
            </div>
            <pre
              data-testid="try-curl"
              className="overflow-x-auto rounded bg-zinc-100 p-2 font-mono text-xs whitespace-pre dark:bg-zinc-950"
            >
              {curl}
            </pre>
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
