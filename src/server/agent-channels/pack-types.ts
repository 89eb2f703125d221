// The shapes the prebuilt channel packs (Slack, GitHub) work with (src/server/agent-channels/packs.ts
// puts them together): types only, so the packs' modules and the services they use can name them
// without importing each other.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { SessionEvent } from "@/agents/sdk/events";
import type { AgentBySlug } from "@/server/agents/find-agent-by-slug";
import type { DurableRuntime } from "@/server/durable/runtime";
import type { HookTarget } from "@/server/hooks/hook-target";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";

export type PackServices = {
  db: PrismaClient;
  runtime: DurableRuntime;
  secrets: PackSecretReader;
  dataDir: string;
  /** Where agent code runs for a route (GitHub's handlers); the web process's own pool. */
  sandboxes?: () => Promise<SandboxPool>;
  logs?: AgentLogWriter;
  /** The services' addresses when not their public ones (tests' fakes, GitHub Enterprise). */
  slackApiUrl?: string;
  githubApiUrl?: string;
};

/** What ctx.host.slack / ctx.host.github calls need (src/server/turns/host-calls.ts). */
export type PackHostServices = Pick<PackServices, "secrets" | "slackApiUrl" | "githubApiUrl">;

export type PackChannel = AgentManifest["channels"][number];

export type PackRequest = {
  request: Request;
  agent: AgentBySlug;
  version: { id: string; bundlePath: string };
  channel: PackChannel;
  /** The path under the channel: ["events"], ["interactivity"], ["webhook"]. */
  path: string[];
};

export type PackRoute = (services: PackServices, input: PackRequest) => Promise<Response>;

/** What posting back needs: no engine and no sandbox (deliveries are the platform's code). */
export type PackDeliveryServices = Omit<PackServices, "runtime" | "sandboxes">;

/** The platform's own delivery of a pack channel's events (posting to Slack, to GitHub), by pack. */
export type PackDeliveries = Partial<
  Record<string, (input: { target: HookTarget; event: SessionEvent }) => Promise<void>>
>;
