// A chat session on a running agent over its /<slug>/v1 API: start, follow up, read one turn's
// events off the stream (reconnecting with startIndex, so nothing is missed or seen twice),
// decide parked calls, stop the turn.
import { type SessionEvent, sessionEventSchema } from "@/agents/sdk/events";
import { agentClient, type AgentTarget } from "@/cli/remote/agent-target";
import { parseAnswer } from "@/cli/remote/instance-client";
import { AppError } from "@/server/errors";
import { parseNdjson } from "@/server/http/ndjson";
import { followUpAcceptedSchema, sessionStartedSchema, sessionStoppedSchema } from "@/server/sessions/schema";
import { z } from "zod";

const decidedSchema = z.object({ ok: z.literal(true), decision: z.enum(["approved", "denied"]) });

/** How often a stream that broke off is opened again before the turn is given up on. */
const maxReconnects = 5;

export type TurnEnd = "completed" | "failed" | "cancelled";

export function sessionClient(target: AgentTarget) {
  const client = agentClient(target);
  let sessionId: string | undefined;
  let continuationToken: string | undefined;
  /** Events read so far: the next read starts after them. */
  const events: SessionEvent[] = [];

  async function send(message: string, options: { isDryRun?: boolean } = {}): Promise<string> {
    if (!sessionId || !continuationToken) {
      const started = await client.request("POST", "/session", sessionStartedSchema, {
        message,
        ...(options.isDryRun ? { dryRun: true } : {}),
      });
      sessionId = started.sessionId;
      continuationToken = started.continuationToken;
      return started.deliveryId;
    }
    const accepted = await client.request("POST", `/session/${sessionId}`, followUpAcceptedSchema, {
      continuationToken,
      message,
    });
    continuationToken = accepted.continuationToken;
    return accepted.deliveryId;
  }

  /** Reads the stream until the turn that took `deliveryId` ends, handing each new event on. */
  async function followTurn(
    deliveryId: string,
    onEvent: (event: SessionEvent) => Promise<void> | void,
    signal?: AbortSignal,
  ): Promise<TurnEnd> {
    if (!sessionId) throw new Error("no session yet");
    let turnId: string | undefined;
    for (let attempt = 0; attempt <= maxReconnects; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal?.addEventListener("abort", abort, { once: true });
      const path = `/session/${sessionId}/stream?startIndex=${events.length}`;
      try {
        const response = await client.send("GET", path, { accept: "application/x-ndjson", signal: controller.signal });
        if (!response.ok || !response.body) await parseAnswer(response, z.never(), `GET ${client.base}${path}`);
        for await (const value of parseNdjson(response.body!)) {
          const parsed = sessionEventSchema.safeParse(value);
          // Heartbeats and control lines; an event already seen (a replay) is not new.
          if (!parsed.success || parsed.data.index < events.length) continue;
          const event = parsed.data;
          events.push(event);
          if (
            !turnId &&
            ((event.type === "message.received" && event.data.deliveryIds?.includes(deliveryId)) ||
              (event.type === "nudge.delivered" && event.data.deliveryId === deliveryId))
          )
            turnId = event.turnId;
          await onEvent(event);
          if (turnId && event.turnId === turnId) {
            if (event.type === "turn.completed") return "completed";
            if (event.type === "turn.failed") return event.data.status === "cancelled" ? "cancelled" : "failed";
          }
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof AppError && error.code !== "unavailable") throw error;
      } finally {
        signal?.removeEventListener("abort", abort);
        controller.abort();
      }
    }
    throw new AppError("unavailable", `the stream of ${sessionId} kept breaking off`);
  }

  return {
    get sessionId() {
      return sessionId;
    },
    events,
    send,
    followTurn,
    decide: (callId: string, decision: "approve" | "deny") =>
      client.request("POST", `/session/${sessionId}/approvals/${encodeURIComponent(callId)}`, decidedSchema, {
        decision,
      }),
    stop: () => client.request("POST", `/session/${sessionId}/stop`, sessionStoppedSchema),
  };
}

export type SessionClient = ReturnType<typeof sessionClient>;
