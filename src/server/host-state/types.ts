// The seam between the host-state stores and their callers (the sandbox host-call protocol, the
// hook dispatcher): what `host.kv` and `host.files` do on the server (docs/agent-folders.md,
// "Host state: kv and files").
import type { JsonValue } from "@/agents/sdk/types";

export type { JsonValue };

export type KvEntry = { value: JsonValue; version: number };

/** ifVersion: put only when the stored version is this one (0: only when the key is absent). */
export type KvPutOptions = { ifVersion?: number };

export type HostKv = {
  get(key: string): Promise<JsonValue | undefined>;
  entry(key: string): Promise<KvEntry | undefined>;
  put(key: string, value: JsonValue, options?: KvPutOptions): Promise<{ version: number }>;
  delete(key: string): Promise<void>;
  /** Sorted keys starting with `prefix`, at most `kvLimits.listedKeys` of them. */
  list(prefix?: string): Promise<string[]>;
};

export type FileScope = "session" | "deployment";

/** encoding: how content crosses a JSON boundary, as text ("utf8") or as base64 of its bytes. */
export type FileOptions = { scope?: FileScope; encoding?: "utf8" | "base64" };

export type HostFiles = {
  read(path: string, options?: FileOptions): Promise<string | undefined>;
  write(path: string, content: string, options?: FileOptions): Promise<void>;
  append(path: string, content: string, options?: FileOptions): Promise<void>;
  /** Sorted paths starting with `prefix`, at most `fileLimits.listedFiles` of them. */
  list(prefix?: string, options?: FileOptions): Promise<string[]>;
  delete(path: string, options?: FileOptions): Promise<void>;
};
