// The shared services agent code reaches as `ctx.host`
// (docs/agent-folders.md, "The `define*` helpers"). Only the shapes: the runtime provides them.
// Members the spec marks [inferred] are decided here and noted.
import type { Octokit } from "@octokit/rest";
import type { JsonValue } from "./types";
import type { ToolExecuteResult } from "./tool-result";

/** Agent-wide JSON values (docs/agent-folders.md, "Host state: kv and files"). */
export type KvStore = {
  get(key: string): Promise<JsonValue | undefined>;
  /** [inferred] A value with its version, for a compare-and-set `put`. */
  entry(key: string): Promise<{ value: JsonValue; version: number } | undefined>;
  /** The last writer wins; with `ifVersion` (0: only if absent) the put throws when the stored
   * version differs. [inferred] Answers the new version. */
  put(key: string, value: JsonValue, options?: { ifVersion?: number }): Promise<{ version: number }>;
  /** [inferred] */
  delete(key: string): Promise<void>;
  /** [inferred] Keys starting with `prefix`, sorted. */
  list(prefix?: string): Promise<string[]>;
};

/** Files are bound to the session unless `scope: "deployment"` asks for agent-wide ones. */
export type FileScope = { scope?: "session" | "deployment" };

/** [inferred] The methods of `host.files`. `append` exists because a journal shared by every
 * session (memory) cannot be written safely with read-then-write. */
export type FilesStore = {
  /** The file as UTF-8 text. */
  read(path: string, options?: FileScope): Promise<string | undefined>;
  /** [inferred] The file's bytes. */
  readBytes(path: string, options?: FileScope): Promise<Uint8Array | undefined>;
  write(path: string, content: string | Uint8Array, options?: FileScope): Promise<void>;
  append(path: string, content: string | Uint8Array, options?: FileScope): Promise<void>;
  list(prefix?: string, options?: FileScope): Promise<string[]>;
  delete(path: string, options?: FileScope): Promise<void>;
};

export type MetricTags = Record<string, string>;

export type OtelApi = {
  increment(name: string, valueOrTags?: number | MetricTags, tags?: MetricTags): void;
  /** [inferred] */
  histogram(name: string, value: number, tags?: MetricTags): void;
  /** [inferred] Tags every later metric of this session. */
  tag(name: string, value: string): void;
};

export type McpToolInfo = { name: string; description?: string; inputSchema?: Record<string, unknown> };

export type McpApi = {
  names(): string[];
  listTools(connection: string): Promise<McpToolInfo[]>;
  callTool(connection: string, tool: string, args?: Record<string, unknown>): Promise<ToolExecuteResult>;
};

export type Reminder = { id: string; fireAt: string; prompt: string };

/** [inferred] (docs/schedules.md, "Reminders"). `in` is milliseconds or a duration like "2h". */
export type ReminderOptions = { prompt: string; at?: string; in?: number | string; id?: string; sessionId?: string };

export type RemindersApi = {
  create(options: ReminderOptions): Promise<{ id: string; fireAt: string }>;
  list(): Promise<Reminder[]>;
  cancel(id: string): Promise<void>;
};

/** [inferred] The GitHub API as the agent's GitHub App installation or token
 * (docs/integrations.md, "GitHub"): an Octokit (`@octokit/rest`) whose requests the platform
 * authenticates, and its `request(route, params)`. */
export type GitHubApi = { getOctokit(): Octokit; request: Octokit["request"] };

/** The Slack Web API client is the author's choice of library, so it stays untyped here. */
export type SlackApi = { getClient(): unknown };

export type HostServices = {
  kv: KvStore;
  files: FilesStore;
  otel: OtelApi;
  mcp: McpApi;
  github: GitHubApi;
  slack: SlackApi;
  /** Present only where a session context exists. */
  reminders?: RemindersApi;
};
