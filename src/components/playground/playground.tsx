"use client";
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { EmptyState, ErrorNote } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { createApiClient } from "./api-client";
import { ChannelActivity, CommandForm } from "./channel-console";
import { Composer } from "./composer";
import { Navbar } from "./navbar";
import { PendingReminders } from "./pending-reminders";
import { SessionHeader } from "./session-header";
import { SessionList } from "./session-list";
import { SidePanel } from "./side-panel";
import { TranscriptView } from "./transcript-view";
import { isTurnActive } from "./transcript-view-model";
import { useAgentInfo } from "./use-agent-info";
import { useChannelConsole } from "./use-channel-console";
import { usePlaygroundActions } from "./use-playground-actions";
import { useSessionStream } from "./use-session-stream";
import { useStickToBottom } from "./use-stick-to-bottom";
import { useToken } from "./use-token";

export type PlaygroundProps = { slug: string; initialSessionId?: string; toolbar?: ReactNode };

export function Playground(props: PlaygroundProps) {
  const [token, setToken] = useToken();
  if (token === null) {
    return (
      <p className="p-6 text-sm text-zinc-500" role="status">
        Loading the playground…
      </p>
    );
  }
  return <PlaygroundScreen {...props} token={token} setToken={setToken} />;
}

type ScreenProps = PlaygroundProps & { token: string; setToken: (token: string) => void };

function PlaygroundScreen({ slug, initialSessionId, toolbar, token, setToken }: ScreenProps) {
  const client = useMemo(() => createApiClient(slug, token), [slug, token]);
  const agent = useAgentInfo(client, slug);
  const channelConsole = useChannelConsole(slug, token);
  const [sessionId, setSessionId] = useState(initialSessionId);
  const [isPanelOpen, setIsPanelOpen] = useState(false);
  const [isSessionsOpen, setIsSessionsOpen] = useState(false);
  const [listRefresh, setListRefresh] = useState(0);
  const stream = useSessionStream(client, sessionId);
  const isActive = isTurnActive(stream.transcript);
  const scroller = useStickToBottom<HTMLDivElement>(stream.transcript);

  const openSession = useCallback((id: string | undefined) => {
    setSessionId(id);
    setIsSessionsOpen(false);
    // The address stays a deep link to what is on screen, without a navigation.
    const url = new URL(window.location.href);
    if (id) url.searchParams.set("sessionId", id);
    else url.searchParams.delete("sessionId");
    window.history.replaceState(window.history.state, "", url);
  }, []);
  const refreshList = useCallback(() => setListRefresh((n) => n + 1), []);
  const actions = usePlaygroundActions({ client, slug, sessionId, onStarted: openSession, onChanged: refreshList });

  // A turn that ends changes the session's status in the list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `isActive` changing is the trigger.
  useEffect(() => refreshList(), [isActive, refreshList]);

  const disabledReason =
    stream.transcript.session?.mode === "task"
      ? "This is a task session: it takes no follow-ups. Start a new chat to talk to the agent."
      : undefined;

  return (
    <div className="flex h-dvh flex-col">
      <Navbar
        agentName={agent.name}
        token={token}
        onTokenChange={setToken}
        isPanelOpen={isPanelOpen}
        onTogglePanel={() => setIsPanelOpen((open) => !open)}
        onToggleSessions={() => setIsSessionsOpen((open) => !open)}
        toolbar={toolbar}
      />
      <div
        className={cn(
          "grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[16rem_1fr]",
          isPanelOpen && "lg:grid-cols-[16rem_1fr_26rem]",
        )}
      >
        <aside
          className={cn(
            "min-h-0 border-r border-zinc-200 bg-white md:block dark:border-zinc-800 dark:bg-zinc-900",
            isSessionsOpen ? "block" : "hidden",
          )}
        >
          <SessionList
            client={client}
            selectedId={sessionId}
            refreshKey={listRefresh}
            onOpen={openSession}
            onNewChat={() => openSession(undefined)}
          />
        </aside>
        <main className="flex min-h-0 flex-col">
          {sessionId ? (
            <SessionHeader
              client={client}
              sessionId={sessionId}
              info={stream.transcript.session}
              status={stream.status}
            />
          ) : null}
          {sessionId ? (
            <PendingReminders
              client={client}
              sessionId={sessionId}
              version={`${Object.keys(stream.transcript.turns).length}:${isActive}`}
            />
          ) : null}
          <div ref={scroller.ref} onScroll={scroller.onScroll} className="min-h-0 flex-1 overflow-y-auto p-4">
            <div className="mx-auto max-w-3xl space-y-3">
              {stream.error ? <ErrorNote testId="stream-error">{stream.error}</ErrorNote> : null}
              {sessionId && stream.events.length === 0 && !stream.error ? (
                <p className="text-sm text-zinc-500">Loading {sessionId}…</p>
              ) : null}
              {!sessionId ? <NewChatHint /> : null}
              <TranscriptView transcript={stream.transcript} onDecide={actions.decide} />
              <ChannelActivity
                slug={slug}
                token={token}
                routes={agent.routes}
                channelConsole={channelConsole}
                onOpenSession={openSession}
              />
            </div>
          </div>
          <div className="mx-auto w-full max-w-3xl">
            {actions.error ? (
              <div className="px-3 pb-2">
                <ErrorNote testId="action-error">{actions.error}</ErrorNote>
              </div>
            ) : null}
            {channelConsole.formRoute ? (
              <CommandForm
                key={channelConsole.formRoute.key}
                slug={slug}
                route={channelConsole.formRoute}
                channelConsole={channelConsole}
              />
            ) : null}
            <Composer
              isTurnActive={isActive}
              isDisabled={disabledReason !== undefined}
              disabledReason={disabledReason}
              onSend={actions.send}
              onStop={actions.stop}
              routes={agent.routes}
              onCommand={channelConsole.choose}
            />
          </div>
        </main>
        {isPanelOpen ? (
          <div className="min-h-64 lg:min-h-0">
            <SidePanel
              events={stream.events}
              sessionId={sessionId}
              client={client}
              onOpenSession={openSession}
              onSessionsChanged={refreshList}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function NewChatHint() {
  return (
    <EmptyState title="Start a conversation">
      Type a message below and press Enter, or open a session from the list. With the offline model, directives such as{" "}
      <code>[delay 5s]</code> or{" "}
      <code>
        [call lookup_order {"{"}&quot;orderId&quot;:&quot;A-1001&quot;{"}"}]
      </code>{" "}
      show streaming and tool calls.
    </EmptyState>
  );
}
