// The typed RPC between the platform (host side) and a sandbox process, over Node's IPC channel.
// Only JSON crosses it: agent code and its objects stay inside the sandbox.
import type { DescriptorKind } from "@/agents/sdk/descriptor";
import type { EvalCaseOutcome, EvalCaseRequest } from "./run-eval";

export type SessionInfo = {
  id: string;
  channel: string;
  mode: "chat" | "task";
  auth: unknown;
  purpose: "live" | "eval";
  title?: string;
  dryRun: boolean;
};

export type ToolCallContext = {
  toolCallId: string;
  session: SessionInfo;
  approvedBy?: unknown;
  workspaceDir: string;
  stateRoot: string;
};

/** What the sandbox learned about one module by loading it. */
export type ModuleReport = {
  file: string;
  kind?: DescriptorKind | "string" | "array";
  /** JSON-safe view of the descriptor: functions dropped, zod schemas as JSON Schema. */
  summary?: unknown;
  /** For modules whose default export is an array of descriptors (evals). */
  items?: { kind?: DescriptorKind; summary?: unknown }[];
  error?: string;
  /** The error's stack, source-mapped: the loader finds the author's file and line in it. */
  errorStack?: string;
};

export type ResultOutcome =
  | { outcome: "committed"; result: unknown }
  | { outcome: "rejected"; message: string }
  | { outcome: "failed"; message: string };

/** `invalidInput`: the input failed the tool's schema; running it again cannot help. */
export type ToolRunResult = { ok: true; output: unknown } | { ok: false; error: string; invalidInput?: boolean };

/** A request to a channel route (docs/agent-folders.md, "Channels"), as the web hands it over. */
export type RouteRequest = {
  channelId: string;
  /** The channel's module. */
  file: string;
  method: string;
  /** The route's declared path (`/tickets/:id`), matched by the platform. */
  pattern: string;
  url: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** base64 */
  body?: string;
  /** Who the platform admitted (one of its tokens, a signed-in member); else the channel's chain decides. */
  principal?: { kind: "user" | "app" | "anonymous" | "local"; id: string };
  /** A loopback caller with no proxy-forwarding headers: what localDevStrict() admits. */
  isDirectLoopback: boolean;
};

/** One event to a channel's `events` handlers, with the session's channel state. */
export type ChannelEventRequest = { file: string; event: { type: string }; context: object; state: unknown };
export type ChannelEventOutcome =
  | { ok: true; handled: number; state: unknown; continuationToken?: string }
  | { ok: false; error: string };

/** A prebuilt channel's event handler (githubChannel's onPullRequest, onIssue, onComment) for one
 * event: `context` is the handler's ctx without `host`, which the sandbox adds. */
export type PackHandlerRequest = {
  file: string;
  handler: "onPullRequest" | "onIssue" | "onComment";
  context: object;
  payload: unknown;
};
/** `isDefined: false`: the channel has no such handler, so the pack's default applies. */
export type PackHandlerOutcome =
  | { ok: true; isDefined: false }
  | { ok: true; isDefined: true; decision: unknown }
  | { ok: false; error: string };

/** A route's answer: the body is base64. */
export type RouteAnswer = { status: number; headers: [string, string][]; body: string };

/** A route's answer as it goes out, in partial messages: the head, the body's pieces (base64), its end. */
export type RoutePart = { head: { status: number; headers: [string, string][] } } | { chunk: string } | { end: true };

export type SandboxMethods = {
  describe: { params: Record<string, never>; result: ModuleReport[] };
  /** `isDryRun`: a dry-run session's write tool, answered by its `dryRunResult` instead of `execute`. */
  runTool: {
    params: { file: string; input: unknown; context: ToolCallContext; isDryRun?: boolean };
    result: ToolRunResult;
  };
  /** A tool's `needsApproval` function, for this input; a throw counts as "yes" (the safe side). */
  needsApproval: {
    params: { file: string; input: unknown; context: ToolCallContext };
    result: { needsApproval: boolean; error?: string };
  };
  runResult: { params: { file: string; text: string; session: SessionInfo }; result: ResultOutcome };
  /** A schedule's `run` (docs/schedules.md, "What fires"), with receive / callTool / reminders as
   * host calls. */
  runSchedule: { params: { file: string; appAuth: unknown }; result: { ok: true } | { ok: false; error: string } };
  /** A channel route: answers in partial messages (RoutePart) and ends once its waitUntil work is
   * done; the result is the head again. */
  runRoute: { params: RouteRequest; result: { status: number; headers: [string, string][] } };
  runChannelEvent: { params: ChannelEventRequest; result: ChannelEventOutcome };
  runPackHandler: { params: PackHandlerRequest; result: PackHandlerOutcome };
  /** One eval case (src/agents/sandbox/run-eval.ts): its assertions, and why it stopped if it did. */
  runEval: { params: EvalCaseRequest; result: EvalCaseOutcome };
  /** The model's tag_artifact: the tag through the registry, then to the platform. */
  tagArtifact: { params: { input: unknown; sessionId: string; turnId?: string }; result: unknown };
  runHook: {
    params: { file: string; event: { type: string }; context: unknown };
    result: { ok: true; handled: number } | { ok: false; error: string };
  };
};

export type SandboxMethod = keyof SandboxMethods;

/**
 * Agent code asking the platform for a host service while one of the platform's requests is in
 * flight (`requestId`): the platform answers in that request's context (its session), never in
 * one the sandbox names itself.
 */
export type HostCallMethod =
  | "reminders.create"
  | "reminders.list"
  | "reminders.cancel"
  | "callTool"
  | "receive"
  | "kv.get"
  | "kv.entry"
  | "kv.put"
  | "kv.delete"
  | "kv.list"
  | "files.read"
  | "files.write"
  | "files.append"
  | "files.list"
  | "files.delete"
  | "session.send"
  | "session.get"
  | "session.wait"
  | "artifacts.tag"
  | "artifacts.list"
  /** ctx.host.mcp: the tools of one of the agent's MCP connections, and calling one. */
  | "mcp.listTools"
  | "mcp.callTool"
  /** An eval's `t.send`: a turn in the case's eval session, answered with that turn's events. */
  | "eval.send"
  /** An eval's `t.judge`: the platform's grading model's verdict on a value by a rubric. */
  | "eval.judge"
  /** `decide` from /extensions/jev: one structured call of the agent's model (decide-api.ts). */
  | "decide"
  /** ctx.host.slack's client: one Web API method, called with the agent's bot token by the platform. */
  | "slack.call"
  /** ctx.host.github's Octokit: one HTTP request to the GitHub API, authenticated by the platform. */
  | "github.request"
  /** What agent code recorded for OpenTelemetry during the call (otel-batch.ts), sent as it ends. */
  | "otel.record";
export type HostCall = { hostCall: number; requestId: number; method: HostCallMethod; params: unknown };
export type HostReply =
  | { hostReply: number; ok: true; result: unknown }
  /** `code`: the platform's error code (e.g. `conflict`), which agent code reads as `error.code`. */
  | { hostReply: number; ok: false; error: string; code?: string };

/** `env`: the agent's secrets, replacing those sent before (only when they changed). */
export type SandboxRequest = { id: number; method: SandboxMethod; params: unknown; env?: Record<string, string> };

export type SandboxResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** A line agent code printed (console.*) during the platform's call `log` (console-capture.ts). */
export type SandboxLog = { log: number; level: "debug" | "info" | "warn" | "error"; text: string };

/** What a call knows before it ends (a route's response while its waitUntil work goes on). */
export type SandboxPartial = { partial: number; result: unknown };
