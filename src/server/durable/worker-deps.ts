// What the worker's Restate services are given: the seam between the worker process
// (src/server/worker/endpoint.ts builds it) and the services in this folder.
import type { TurnConnections } from "@/server/turns/engine";
import type { PrismaClient } from "@prisma/client";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { WorkspaceStock } from "@/agents/runtime/workspace-stock";
import type { EgressPolicy } from "@/agents/sandbox/egress-policy";
import type { ResolveTarget } from "@/agents/sandbox/egress-proxy";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import type { Telemetry } from "@/server/telemetry/telemetry";
import type { TurnCancellations } from "@/server/turns/cancellation";
import type { EagerTurns } from "@/server/worker/eager-turns";
import type { RetryBound } from "./retry-bound";
import type { DurableRuntime } from "./runtime";

export type WorkerDeps = {
  db: PrismaClient;
  dataDir: string;
  models: ModelProviderSettings;
  defaultModel: string;
  sandboxes: SandboxPool;
  /** New sessions' workspaces laid out ahead of time (run-turn.ts). */
  workspaces?: WorkspaceStock;
  cancellations: TurnCancellations;
  /** Backoff before retry n of a read tool (tests shorten it). */
  retryDelayMs?: (attempt: number) => number;
  /** How long a parked tool call waits for a decision before it expires (denied); 24 h. */
  approvalTimeoutMs?: number;
  /** The scheduler's clock (tests move it). */
  clock?: () => Date;
  /** For what a turn starts in the engine (reminders' delayed wakes, hand-overs); without it, no
   * reminders and no eager turns (such a worker suits only a database whose sessions it never runs). */
  runtime?: DurableRuntime;
  /** New sessions' first turns, started from their commit (src/server/worker/eager-turns.ts); without it, every
   * turn starts when Restate delivers its invocation. */
  eager?: EagerTurns;
  /** How often a turn (or a direct tool call) is tried on retryable failures, and how far apart. */
  retry?: RetryBound;
  /** How long one hook may take with one event (src/server/hooks/hook-dispatcher.ts); 30 s. */
  hookTimeoutMs?: number;
  /** Agents' log lines (src/server/logging/agent-logs.ts), stored in the background. */
  logs: AgentLogWriter;
  /** How much of each agent's log is kept (AGENTFOLD_LOG_MAX_LINES, AGENTFOLD_LOG_RETENTION_DAYS). */
  logRetention?: { maxLinesPerAgent?: number; retentionDays?: number; trimEveryMs?: number };
  /** Where spans and metrics go (src/server/telemetry); absent when no OTLP endpoint is set. */
  telemetry?: Telemetry;
  /** Tests: where agent code may connect, and how names resolve (a test's receiver on loopback). */
  sandboxEgress?: { egress: EgressPolicy; resolve: ResolveTarget };
  /** host:port of MCP servers remote connections may reach though private (AGENTFOLD_MCP_PRIVATE_HOSTS). */
  mcpPrivateHosts?: readonly string[];
  /** Where the Slack Web API and the GitHub API answer, when not at their public addresses (tests'
   * fakes; env.ts SLACK_API_URL, GITHUB_API_URL). */
  slackApiUrl?: string;
  githubApiUrl?: string;
  /** Evals (src/server/evals): the grading model of t.judge, and how long a case's claim holds. */
  evalJudgeModel?: string;
  evalLeaseMs?: number;
  /** The public address MCP OAuth callbacks arrive under (env.ts publicUrl, AGENTFOLD_PUBLIC_URL). */
  publicUrl?: string;
  /** MCP connections and peer agents (src/server/mcp); made by the worker server. */
  connections?: TurnConnections;
};
