// One chat client of the chaos test: a session whose turns it sends one after another, each once
// the last one ended, with its stream followed across web processes (stream-follower.ts). A send
// that fails on the way (a web killed mid-request, a 5xx while a part restarts) is looked up in
// the log by its delivery id before it is sent again, so no message is recorded twice, and the
// continuation token it may have rotated is taken back with /resume.
import crypto from "node:crypto";
import type { SessionEvent } from "@/agents/sdk/events";
import { sleep } from "@/cli/start/wait";
import { isTurnEnd, request, sessionLog } from "./cluster-stack";
import { followStream, type StreamFollower } from "./stream-follower";

export type SentTurn = { deliveryId: string; turnId?: string; end?: SessionEvent; problem?: string };

export type ChatClient = {
  sessionId: string;
  follower: StreamFollower;
  turns: SentTurn[];
  /** Sends turns until `until` passes, then waits for the last one's end. */
  run: (until: number, turnBoundMs: number) => Promise<void>;
};

type Endpoints = { baseUrl: string; webUrls: string[]; token: string; slug: string };

export async function startChatClient(endpoints: Endpoints, n: number, message: string): Promise<ChatClient> {
  const { baseUrl, webUrls, token, slug } = endpoints;
  const first: SentTurn = { deliveryId: `dlv_chaos_${n}_0_${crypto.randomBytes(4).toString("hex")}` };
  const started = await request(webUrls[n % webUrls.length]!, token, "POST", `/${slug}/v1/session`, {
    message,
    deliveryId: first.deliveryId,
  });
  if (started.status !== 200) throw new Error(`session ${n}: ${started.status} ${JSON.stringify(started.json)}`);
  const sessionId: string = started.json.sessionId;
  let continuationToken: string = started.json.continuationToken;
  const follower = followStream({ urls: webUrls, slug, sessionId, token, first: n });
  const turns: SentTurn[] = [first];

  async function isRecorded(deliveryId: string): Promise<boolean> {
    for (;;) {
      try {
        const log = await sessionLog(baseUrl, token, sessionId);
        return log.some((e) => e.type === "message.received" && e.data.deliveryIds?.includes(deliveryId));
      } catch {
        await sleep(200);
      }
    }
  }

  async function send(turn: SentTurn): Promise<void> {
    for (;;) {
      const answer = await request(baseUrl, token, "POST", `/${slug}/v1/session/${sessionId}`, {
        continuationToken,
        message,
        deliveryId: turn.deliveryId,
      }).catch(() => undefined);
      if (answer?.status === 200) return void (continuationToken = answer.json.continuationToken);
      if (answer && answer.status < 500 && answer.status !== 409) {
        throw new Error(`send to ${sessionId}: ${answer.status} ${JSON.stringify(answer.json)}`);
      }
      // Lost on the way, refused while a part restarts, or the token was rotated by a send whose
      // answer was lost: recorded or not, a fresh token comes from /resume.
      const recorded = await isRecorded(turn.deliveryId);
      const resumed = await request(baseUrl, token, "POST", `/${slug}/v1/session/${sessionId}/resume`).catch(
        () => undefined,
      );
      if (resumed?.status === 200) continuationToken = resumed.json.continuationToken;
      if (recorded) return;
      await sleep(200);
    }
  }

  async function waitForEnd(turn: SentTurn, boundMs: number): Promise<void> {
    try {
      const received = await follower.waitFor(
        (e) => e.type === "message.received" && (e.data.deliveryIds?.includes(turn.deliveryId) ?? false),
        boundMs,
      );
      turn.turnId = received.turnId;
      turn.end = await follower.waitFor((e) => isTurnEnd(e) && e.turnId === received.turnId, boundMs);
    } catch (error) {
      turn.problem = (error as Error).message;
    }
  }

  return {
    sessionId,
    follower,
    turns,
    async run(until, turnBoundMs) {
      for (let i = 1; ; i++) {
        await waitForEnd(turns.at(-1)!, turnBoundMs);
        if (turns.at(-1)!.problem || Date.now() > until) return;
        const turn: SentTurn = { deliveryId: `dlv_chaos_${n}_${i}_${crypto.randomBytes(4).toString("hex")}` };
        turns.push(turn);
        await send(turn);
      }
    },
  };
}
