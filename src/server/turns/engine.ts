// The seams of the turn engine, as types only: what the turn (run-turn.ts), its loop
// (agent-loop.ts), the steps (model-step.ts, tool-call.ts), the journal (step-journal.ts), the
// setup (turn-setup.ts) and the approval gate (approvals/gate-approvals.ts) hand each other. The
// implementation files import these instead of each other, so no import circle runs between them;
// this file imports only leaves (src/server/import-cycles.test.ts checks it).
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { PrismaClient } from "@prisma/client";
import type { ModelMessage } from "ai";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { WorkspaceStock } from "@/agents/runtime/workspace-stock";
import type { SessionInfo } from "@/agents/sandbox/protocol";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { Sandbox } from "@/agents/sandbox/sandbox";
import type { Usage } from "@/agents/sdk/events";
import type { Principal } from "@/agents/sdk/types";
import type { DurableRuntime, TurnRequest } from "@/server/durable/runtime";
import type { StepRecord } from "@/server/events/append-events";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import type { AuthorizationWaits } from "@/server/mcp/authorization-waits";
import type { ConnectionPool } from "@/server/mcp/connection-pool";
import type { SpanScope } from "@/server/telemetry/span-scope";
import type { Telemetry } from "@/server/telemetry/telemetry";
import type { ToolOutcome } from "./tool-output";
import type { TurnFailureCode } from "./turn-failure";

/** What runTurn is given by the worker's session object (or an eager run). */
export type TurnDeps = {
  db: PrismaClient;
  /** The data directory: agent versions' files and session workspaces live under it. */
  dataDir: string;
  step: Step;
  /** Waits for the journal's deferred records (step-journal.ts); absent where none are deferred. */
  settled?: () => Promise<void>;
  /** What an earlier run of this turn recorded, for steps that were cut off. */
  earlier: EarlierRun;
  /** The turn is its session's first, run as the session start announced it (an eager run): the
   * conversation is its own message, with nothing to read. */
  opensSession?: boolean;
  /** The session's setup row, when the run read it already (an eager run reads it with its
   * epoch check: turn-setup.ts readEagerTurnStart). */
  setupRow?: Promise<SessionSetupRow | undefined>;
  /** Whether a coalesced send may be waiting (an eager run knows when none can be: eager-turns.ts);
   * without it, each tool boundary asks the database. */
  mayHavePending?: () => boolean;
  models: ModelProviderSettings;
  defaultModel: string;
  sandboxes: SandboxPool;
  /** New sessions' workspaces laid out ahead of time (the worker's); without it, each is laid out
   * when its first turn starts. */
  workspaces?: WorkspaceStock;
  /** Aborted by stop or preempt: the model stream and the running tool end at once. */
  signal: AbortSignal;
  /** Settles once a stop asked before this run began has been applied to `signal`; the turn's
   * own reads run meanwhile. */
  started?: Promise<void>;
  retryDelayMs?: (attempt: number) => number;
  /** The engine, for reminders' delayed wakes (the `remind` tool is offered when present). */
  runtime?: DurableRuntime;
  /** Parking tool calls for approval. */
  approvals: ApprovalWaits;
  /** A durable promise another turn can resolve by id (waiting for a maxRunningTurns slot). */
  awakeable: () => { id: string; promise: Promise<unknown> };
  resolveAwakeable: (id: string) => void;
  /** Where spans and metrics go; absent when nothing is exported (docs/telemetry.md). */
  telemetry?: Telemetry;
  /** MCP connections and peer agents (connection-tools.ts); without them, a version that
   * declares any fails its turns. */
  connections?: TurnConnections;
  /** The agents' logs, for platform lines about a turn (a connection left out). */
  logs?: AgentLogWriter;
  /** This run's turn span (started on first use) and when the run began. */
  trace?: SpanScope;
  runStartedAt?: number;
};

/** How a turn ended, as its finish step recorded it: whether it was stopped (stop, preempt), and
 * the follow-up turn its coalesced sends drained into, if any. */
export type TurnFinish = { next?: TurnRequest; stopped: boolean };

/** What the loop's outcome, judged by the result contract, makes of the turn: its finish writes it. */
export type TurnEnd =
  | { kind: "completed"; text: string; usage: Usage; cost?: { totalUsd: number; model: string }; result?: unknown }
  | { kind: "failed"; message: string; code: TurnFailureCode; text?: string; usage?: Usage }
  | { kind: "cancelled" };

export type TurnSetup = {
  session: SessionInfo & { agentId: string; versionId: string; unattendedApprovals: "deny" | "park" };
  /** The pinned version's manifest; `root` is absent for a version with no folder. */
  manifest: Omit<AgentManifest, "root"> & { root?: AgentManifest["root"] };
  modelId: string;
  /** The agent's params as its provider's options (model-choice.ts); absent when none apply. */
  modelOptions?: SharedV3ProviderOptions;
  system: string;
  messages: ModelMessage[];
  /** Absolute path of the version's sandbox bundle; null for a folder with no modules. */
  bundlePath: string | null;
  agentDir: string;
  workspaceDir: string;
  stateRoot: string;
};

/** The session and its version, as loadTurnSetup reads them. */
export type SessionSetupRow = {
  id: string;
  agentId: string;
  agentVersionId: string;
  ownerKind: string;
  ownerId: string;
  channelId: string;
  mode: "chat" | "task";
  purpose: "live" | "eval";
  title: string | null;
  dryRun: boolean;
  manifest: Partial<AgentManifest> | null;
  bundlePath: string | null;
  unattendedApprovals: string;
};

/**
 * Runs a named step once per turn (step-journal.ts). The action may `seal` its outcome and hand
 * the record to its last append, so the step's record commits with its last events; otherwise
 * the journal writes the record itself once the action returns.
 */
export type Step = <T>(name: string, action: (seal: Seal<T>) => Promise<T>) => Promise<T>;

/** The journal row for this outcome, for the step's last append; undefined where steps are not
 * journaled in Postgres. */
export type Seal<T> = (outcome: T) => StepRecord | undefined;

/** The turn a peer agent is asked from: its session's principal is the caller. */
export type PeerCaller = { setup: TurnSetup; turnId: string };

/** What a turn's MCP connections go through: the process's client pool, peer agents, and the
 * wait for an OAuth connection to be connected (open-connections.ts). */
export type TurnConnections = {
  pool: ConnectionPool;
  authorizations?: AuthorizationWaits;
  /** How long a turn waits for Connect; 10 minutes. */
  connectWaitMs?: number;
  peers?: {
    ask: (
      caller: PeerCaller,
      slug: string,
      input: { message: string; sessionId?: string },
      signal?: AbortSignal,
    ) => Promise<unknown>;
    check: (caller: PeerCaller, slug: string, input: { sessionId: string }) => Promise<unknown>;
  };
};

/** What an earlier run of this turn left in the event log that a step run again must know. */
export type EarlierRun = {
  /** How many attempts of a model step (its key) have started before. */
  startedAttempts: (stepKey: string) => Promise<number>;
  /** The data of an event recorded under this idempotency key (a tool call's action.result). */
  recorded: (idempotencyKey: string) => Promise<unknown>;
  /** Texts of nudges recorded under keys starting with this prefix, in log order. */
  nudges: (keyPrefix: string) => Promise<string[]>;
  /** Marks a write call as started by this run, before it runs (a journal row under the call's
   * claim key, naming this run's worker). `earlier: false` when no run of the turn started it
   * before. Otherwise an earlier run did, and the call must not run again: `result` is that run's,
   * awaited while its worker lives, for up to `waitMs` (undefined when its worker is gone, the
   * wait ran out or `signal` aborted). Throws SupersededRun when a newer run took the turn. */
  claimWrite: (
    keys: { claim: string; result: string },
    waitMs: number,
    signal: AbortSignal,
  ) => Promise<{ earlier: false } | { earlier: true; result?: unknown }>;
};

/** What the model ⇄ tools loop (agent-loop.ts) and the steps it runs share, for a turn or a subagent. */
export type LoopEnv = {
  db: PrismaClient;
  step: Step;
  /** Waits for the journal's deferred records (step-journal.ts). */
  settled?: () => Promise<void>;
  /** What an earlier run of this turn recorded, for steps that were cut off (step-journal.ts). */
  earlier: EarlierRun;
  setup: TurnSetup;
  turnId: string;
  signal: AbortSignal;
  models: ModelProviderSettings;
  sandbox: () => Sandbox;
  retryDelayMs?: (attempt: number) => number;
  /** Parking tool calls for approval (durable waits with an expiry). */
  approvals: ApprovalWaits;
  /** Runs a `task` call (a subagent) under the call's span; absent inside subagents, which cannot delegate. */
  delegate?: (call: ToolCallRequest, trace: SpanScope) => Promise<ToolCallResult & Spend>;
  telemetry?: Telemetry;
  /** The span the loop's steps go under: the turn's, or a `task` call's. */
  trace?: SpanScope;
};

export type Spend = { usage: Usage; costUsd: number | null };

export type LoopOutcome = Spend & { nextStep: number } & (
    | { kind: "ok"; text: string; messages: ModelMessage[] }
    | { kind: "failed"; message: string; code: TurnFailureCode }
    | { kind: "cancelled" }
  );

export type ModelStepOutcome =
  | {
      kind: "ok";
      text: string;
      toolCalls: ToolCallRequest[];
      steered: ModelMessage[];
      response: ModelMessage[];
      usage: Usage;
      startedAt: number;
    }
  | { kind: "failed"; message: string; code: TurnFailureCode }
  | { kind: "cancelled" };

export type ToolCallRequest = {
  callId: string;
  toolName: string;
  input: unknown;
  parentCallId?: string;
  invalid?: string;
};

export type ToolCallResult = ToolOutcome & { cancelled?: true };

/** The approval gate's answer for one call: who approved it, or why it is denied. */
export type Verdict = { approvedBy?: Principal; denied?: string };

export type ApprovalWaits = {
  /** A durable promise with its id, failing with Restate's TimeoutError after `timeoutMs`. */
  park: (timeoutMs: number) => { id: string; promise: Promise<unknown> };
  timeoutMs: number;
};
