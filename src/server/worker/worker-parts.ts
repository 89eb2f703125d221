// What the worker's server is made of: what its caller configures, what start-up makes from that
// for the services (worker-core.ts) and what runs beside them (background.ts); endpoint.ts closes
// them again.
import type { WorkerDeps } from "@/server/durable/worker-deps";
import type { EvalExecutor } from "@/server/evals/eval-executor";
import type { HookDispatcher } from "@/server/hooks/hook-dispatcher";
import type { Logger } from "@/server/logging/logger";
import type { AuthorizationWaits } from "@/server/mcp/authorization-waits";
import type { ConnectionPool } from "@/server/mcp/connection-pool";
import type { SecretReader } from "@/server/secrets/create-secret-reader";
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";
import type { SlackSockets } from "@/server/slack/socket-mode";

/** What the caller configures; the sandbox pool and the listeners belong to the server. */
export type WorkerConfig = Omit<
  WorkerDeps,
  "sandboxes" | "cancellations" | "eager" | "workspaces" | "logs" | "connections"
>;

/** Slack's and GitHub's credentials, and their API addresses when not the public ones. */
export type PackAccess = {
  secrets: PackSecretReader;
  apiUrls: { slackApiUrl?: string; githubApiUrl?: string };
};

/** What the services run on (the deps) and what start-up made them from. */
export type WorkerCore = {
  deps: WorkerDeps;
  log: Logger;
  agentKey: Buffer;
  databaseUrl: string;
  packs: PackAccess;
  logs: WorkerDeps["logs"];
  sandboxes: WorkerDeps["sandboxes"];
  pool: ConnectionPool;
  cancellations: WorkerDeps["cancellations"];
  authorizations: AuthorizationWaits;
  secrets: SecretReader;
};

/** What runs beside the services; Slack's sockets and the eval executor only with an engine. */
export type WorkerBackground = {
  hooks: HookDispatcher;
  slackSockets: SlackSockets | undefined;
  evals: EvalExecutor | undefined;
};
