"use client";
import { useCallback, useState } from "react";
import { type ChannelAnswer, type ChannelRequest, callChannelRoute } from "./channel-call";
import { rememberDraft } from "./route-drafts";
import { draftOf } from "./route-input-state";

export type RouteCall = { answer?: ChannelAnswer; error?: string; isSending: boolean };

/** Sends a request to a channel route, remembering its input for the next time. */
export function useRouteCall(slug: string, token: string) {
  const [call, setCall] = useState<RouteCall>({ isSending: false });
  const send = useCallback(
    async (request: ChannelRequest): Promise<ChannelAnswer | undefined> => {
      rememberDraft(slug, request.route.key, draftOf(request));
      setCall({ isSending: true });
      try {
        const answer = await callChannelRoute(slug, token, request);
        setCall({ answer, isSending: false });
        return answer;
      } catch {
        setCall({ isSending: false, error: "Could not reach the server. Check your connection and send again." });
        return undefined;
      }
    },
    [slug, token],
  );
  return { ...call, send, reset: useCallback(() => setCall({ isSending: false }), []) };
}
