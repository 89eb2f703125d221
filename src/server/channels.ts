// Every Postgres NOTIFY channel of the platform, with the payload it carries. A notice goes out
// when the statement that sends it commits (never for a rolled-back change), and is lost when
// nobody listens: every listener catches up from the database after a reconnect
// (src/server/events/pg-listener.ts). Postgres refuses payloads of 8000 bytes or more.
import { z } from "zod";
import type { TurnRequest } from "@/server/durable/runtime";
import { parseNotice, type Notice } from "@/server/events/notice";

export type Channel<T> = {
  /** What LISTEN and pg_notify name. */
  name: string;
  /** The payload as sent. Absent where only SQL builds it (named at the channel). */
  encode?: (payload: T) => string;
  /** The payload heard; undefined when it cannot be read, and a listener then ignores it. */
  decode: (payload: string) => T | undefined;
};

const id = z.string().min(1);

/** A channel whose payload is JSON of `schema`: checked when sent, ignored when it does not parse. */
function jsonChannel<T>(name: string, schema: z.ZodType<T>): Channel<T> {
  return {
    name,
    encode: (payload) => JSON.stringify(schema.parse(payload)),
    decode: (payload) => {
      try {
        return schema.safeParse(JSON.parse(payload)).data;
      } catch {
        return undefined;
      }
    },
  };
}

function idChannel(name: string, what: string): Channel<string> {
  const schema = id.describe(what);
  return { name, encode: (value) => schema.parse(value), decode: (payload) => schema.safeParse(payload).data };
}

/** An append's "session S has events up to index N", with the events when they fit
 * (src/server/events/notice.ts); built by the append statement (group-commit.ts) and the session
 * start (record-session-start.ts). Heard by every web process's event hub. */
export const sessionEventsChannel: Channel<Notice> = { name: "session_events", decode: parseNotice };

const turnRequestSchema = z.object({
  sessionId: id,
  turnId: id,
  message: z.string(),
  workspaceFiles: z.record(z.string(), z.string()).optional(),
}) satisfies z.ZodType<TurnRequest>;

const turnNoticeSchema = z.object({ worker: z.number().int(), turn: turnRequestSchema });
export type TurnNotice = z.infer<typeof turnNoticeSchema>;

/** A new session's first turn and the key of the worker named to run it (src/server/worker/eager-turns.ts).
 * The session-start statement (record-session-start.ts) writes the JSON itself, since only it knows the key. */
export const turnStartChannel: Channel<TurnNotice> = jsonChannel("turn_start", turnNoticeSchema);

/** Stop or preempt: the id of the turn whichever worker runs it aborts (src/server/turns/cancellation.ts). */
export const turnCancelChannel = idChannel("turn_cancel", "the id of the turn to abort");

/** A coalesced send queued for a session's running turn: the session id (src/server/turns/pending-deliveries.ts).
 * A turn run eagerly checks for sends at its tool boundaries only once told. */
export const pendingDeliveryChannel = idChannel("pending_delivery", "the id of the session a send waits for");

/** An agent's secrets changed: its id; workers' secret readers drop what they keep
 * (src/server/secrets/create-secret-reader.ts). */
export const secretsChannel = idChannel("agentfold_secrets", "the id of the agent whose secrets changed");

/** An agent's artifacts changed (a tag): its id; web processes' artifact streams read past their
 * cursor (src/server/artifacts/stream-artifacts.ts). Sent by the tag's transaction. */
export const artifactsChannel = idChannel("agent_artifacts", "the id of the agent whose artifacts changed");

/** An API token or an agent changed or went: no payload. Sent by rules on "ApiToken" and "Agent"
 * (prisma/migrations/20261130143000_credential_notices); web processes drop the credentials they
 * keep (src/server/auth/credential-cache.ts). */
export const credentialsChannel: Channel<void> = { name: "agentfold_credentials", decode: () => undefined };

const authorizedSchema = z.object({ agentId: id, connection: id });
export type McpAuthorized = z.infer<typeof authorizedSchema>;

/** An `oauth: true` MCP connection of an agent was connected (the OAuth callback stored its
 * tokens): turns waiting for it in workers go on (src/server/mcp/authorization-waits.ts). */
export const mcpAuthorizedChannel: Channel<McpAuthorized> = jsonChannel("mcp_authorized", authorizedSchema);

/** An eval run has cases to run, or a case of it finished: the run's id; workers' eval executors
 * claim what they may (src/server/evals/eval-executor.ts). */
export const evalWorkChannel = idChannel("eval_work", "the id of the eval run with work");

/** All of them, for a map of who talks to whom (ARCHITECTURE.md). */
export const channels = [
  sessionEventsChannel,
  turnStartChannel,
  turnCancelChannel,
  pendingDeliveryChannel,
  secretsChannel,
  artifactsChannel,
  credentialsChannel,
  mcpAuthorizedChannel,
  evalWorkChannel,
] as const;
