"use client";
// What slash commands show: the /help listing of the agent's channel routes (each with Try), the
// form a chosen command opens above the composer, and every call with its answer.
import { type FormEvent, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { ChannelAnswerView } from "./channel-answer";
import type { ChannelRoute } from "./channel-routes";
import { lastDraft } from "./route-drafts";
import { InputError, initialInputs, requestOf } from "./route-input-state";
import { RouteInputs } from "./route-inputs";
import { TryDialog } from "./try-dialog";
import type { ChannelConsole, ConsoleEntry } from "./use-channel-console";

type Props = {
  slug: string;
  token: string;
  routes: ChannelRoute[];
  channelConsole: ChannelConsole;
  onOpenSession: (sessionId: string) => void;
};

/** The console's entries, below the transcript, and the Try modal when one is open. */
export function ChannelActivity({ slug, token, routes, channelConsole, onOpenSession }: Props) {
  return (
    <>
      {channelConsole.entries.map((entry) => (
        <section
          key={entry.id}
          className="rounded-lg border border-dashed border-zinc-300 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900"
        >
          {entry.kind === "help" ? (
            <ChannelHelp routes={routes} onTry={channelConsole.openTry} />
          ) : (
            <CallEntry entry={entry} slug={slug} onOpenSession={onOpenSession} />
          )}
        </section>
      ))}
      {channelConsole.tryRoute ? (
        <TryDialog
          key={channelConsole.tryRoute.key}
          slug={slug}
          token={token}
          route={channelConsole.tryRoute}
          onClose={channelConsole.closeTry}
          onOpenSession={(id) => (channelConsole.closeTry(), onOpenSession(id))}
        />
      ) : null}
    </>
  );
}

export function ChannelHelp({ routes, onTry }: { routes: ChannelRoute[]; onTry: (route: ChannelRoute) => void }) {
  return (
    <div data-testid="channel-help" className="space-y-2 text-sm">
      <p className="font-medium">Channel routes</p>
      {routes.length === 0 ? (
        <p className="text-zinc-500">This agent has no channel routes.</p>
      ) : (
        <ul className="space-y-1.5">
          {routes.map((route) => (
            <li key={route.key} data-testid="help-route" data-route={route.key} className="flex items-start gap-2">
              <Badge>{route.method}</Badge>
              <div className="min-w-0 flex-1">
                <code className="font-mono">
                  {route.channel}
                  {route.path}
                </code>
                {route.description ? <span className="ml-1.5 text-zinc-500">{route.description}</span> : null}
                <p className="text-xs text-zinc-500">
                  {route.params.length === 0 ? `/${route.key}` : "has path parameters: not a slash command, use Try"}
                </p>
              </div>
              <Button size="sm" variant="secondary" data-testid="help-try" onClick={() => onTry(route)}>
                Try
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-zinc-500">Type / in the composer for the commands; these calls are not messages.</p>
    </div>
  );
}

function CallEntry({
  entry,
  slug,
  onOpenSession,
}: {
  entry: Extract<ConsoleEntry, { kind: "call" }>;
  slug: string;
  onOpenSession: (sessionId: string) => void;
}) {
  const { route, body } = entry.request;
  return (
    <div data-testid="channel-call" data-route={route.key} className="space-y-2">
      <p className="font-mono text-sm">
        /{route.key}
        {body !== undefined ? <span className="ml-2 text-xs text-zinc-500">{JSON.stringify(body)}</span> : null}
      </p>
      {entry.error ? <ErrorNote>{entry.error}</ErrorNote> : null}
      {entry.answer ? (
        <ChannelAnswerView answer={entry.answer} slug={slug} onOpenSession={onOpenSession} />
      ) : entry.error ? null : (
        <p className="text-xs text-zinc-500">Sending…</p>
      )}
    </div>
  );
}

/** The form a chosen slash command opens above the composer; Send calls the route. */
export function CommandForm({
  slug,
  route,
  channelConsole,
}: {
  slug: string;
  route: ChannelRoute;
  channelConsole: ChannelConsole;
}) {
  const [inputs, setInputs] = useState(() => initialInputs(route, lastDraft(slug, route.key), true));
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      void channelConsole.call(requestOf(route, inputs));
    } catch (problem) {
      setError(problem instanceof InputError ? problem.message : String(problem));
    }
  };
  return (
    <form
      onSubmit={submit}
      data-testid="command-form"
      data-route={route.key}
      className="space-y-3 border-t border-zinc-200 bg-zinc-50 p-3 dark:border-zinc-800 dark:bg-zinc-950"
    >
      <p className="text-sm">
        <code className="font-mono font-medium">/{route.key}</code>
        {route.description ? <span className="ml-1.5 text-zinc-500">{route.description}</span> : null}
      </p>
      <RouteInputs inputs={inputs} onChange={setInputs} />
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={channelConsole.closeForm} data-testid="command-cancel">
          Cancel
        </Button>
        <Button variant="secondary" onClick={() => channelConsole.openTry(route)} data-testid="command-try">
          Try…
        </Button>
        <Button type="submit" data-testid="command-send">
          Send
        </Button>
      </div>
    </form>
  );
}
