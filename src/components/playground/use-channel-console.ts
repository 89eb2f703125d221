"use client";
// The playground's channel console: what /help and slash commands add below the transcript (a
// help listing, each call with its answer), the command form being filled in, and the open Try
// modal. Page state only; none of it is part of a session.
import { useCallback, useRef, useState } from "react";
import { type ChannelAnswer, type ChannelRequest, callChannelRoute } from "./channel-call";
import type { ChannelRoute, SlashItem } from "./channel-routes";
import { rememberDraft } from "./route-drafts";
import { draftOf } from "./route-input-state";

export type ConsoleEntry =
  | { id: number; kind: "help" }
  | { id: number; kind: "call"; request: ChannelRequest; answer?: ChannelAnswer; error?: string };

type NewEntry = { kind: "help" } | { kind: "call"; request: ChannelRequest };

export function useChannelConsole(slug: string, token: string) {
  const [entries, setEntries] = useState<ConsoleEntry[]>([]);
  const [formRoute, setFormRoute] = useState<ChannelRoute>();
  const [tryRoute, setTryRoute] = useState<ChannelRoute>();
  const nextId = useRef(1);

  const add = useCallback((entry: NewEntry) => {
    const id = nextId.current++;
    setEntries((all) => [...all, { ...entry, id }]);
    return id;
  }, []);
  const patch = useCallback(
    (id: number, change: Partial<Extract<ConsoleEntry, { kind: "call" }>>) =>
      setEntries((all) =>
        all.map((entry) => (entry.id === id && entry.kind === "call" ? { ...entry, ...change } : entry)),
      ),
    [],
  );

  const choose = useCallback(
    (item: SlashItem) => {
      if (item.kind === "help") add({ kind: "help" });
      else setFormRoute(item.route);
    },
    [add],
  );

  const call = useCallback(
    async (request: ChannelRequest) => {
      rememberDraft(slug, request.route.key, draftOf(request));
      setFormRoute(undefined);
      const id = add({ kind: "call", request });
      try {
        patch(id, { answer: await callChannelRoute(slug, token, request) });
      } catch {
        patch(id, { error: "Could not reach the server. Check your connection and send again." });
      }
    },
    [slug, token, add, patch],
  );

  return {
    entries,
    formRoute,
    tryRoute,
    choose,
    call,
    closeForm: useCallback(() => setFormRoute(undefined), []),
    openTry: setTryRoute,
    closeTry: useCallback(() => setTryRoute(undefined), []),
  };
}

export type ChannelConsole = ReturnType<typeof useChannelConsole>;
