"use client";
// What the person does to a session, through the same routes a curl user calls: start a chat,
// follow up with the latest continuation token, stop, and decide a parked call.
import { useCallback, useEffect, useState } from "react";
import { ApiError, type ApiClient } from "./api-client";
import { clearContinuationToken, readContinuationToken, saveContinuationToken } from "./continuation-store";
import type { FollowUpSent, SessionStarted } from "./types";

type Options = {
  client: ApiClient;
  slug: string;
  sessionId?: string;
  onStarted: (sessionId: string) => void;
  onChanged: () => void;
};

export function usePlaygroundActions({ client, slug, sessionId, onStarted, onChanged }: Options) {
  const [error, setError] = useState<string>();
  // An error belongs to the session it happened in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `sessionId` changing is the trigger.
  useEffect(() => setError(undefined), [sessionId]);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setError(undefined);
    try {
      return await work();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      return undefined;
    }
  }, []);

  const send = useCallback(
    async (message: string): Promise<boolean> => {
      const done = await run(async () => {
        if (!sessionId) {
          const started = await client.json<SessionStarted>("POST", "/session", {
            body: { message, title: titleOf(message) },
          });
          saveContinuationToken(slug, started.sessionId, started.continuationToken);
          onStarted(started.sessionId);
          return true;
        }
        const path = `/session/${encodeURIComponent(sessionId)}`;
        // No token in this tab: the owner takes the session over (another client's token goes stale).
        const continuationToken =
          readContinuationToken(slug, sessionId) ??
          (await client.json<{ continuationToken: string }>("POST", `${path}/resume`)).continuationToken;
        try {
          const sent = await client.json<FollowUpSent>("POST", path, { body: { continuationToken, message } });
          saveContinuationToken(slug, sessionId, sent.continuationToken);
        } catch (failure) {
          // Continued elsewhere since: the next send here resumes it.
          if (failure instanceof ApiError && failure.code === "stale_continuation_token")
            clearContinuationToken(slug, sessionId);
          throw failure;
        }
        return true;
      });
      onChanged();
      return done ?? false;
    },
    [client, slug, sessionId, onStarted, onChanged, run],
  );

  const stop = useCallback(async () => {
    if (!sessionId) return;
    await run(() => client.json("POST", `/session/${encodeURIComponent(sessionId)}/stop`));
    onChanged();
  }, [client, sessionId, onChanged, run]);

  const decide = useCallback(
    async (callId: string, decision: "approve" | "deny") => {
      if (!sessionId) return;
      await run(() =>
        client.json("POST", `/session/${encodeURIComponent(sessionId)}/approvals/${encodeURIComponent(callId)}`, {
          body: { decision },
        }),
      );
    },
    [client, sessionId, run],
  );

  return { send, stop, decide, error };
}

/** The first line of the first message, short enough for the sessions list. */
function titleOf(message: string): string {
  const line = message.split("\n")[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
