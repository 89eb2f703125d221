// ctx.host.kv and ctx.host.files as host calls: the params agent code sent, checked, and the
// stores' answers in a form JSON carries ("absent" as { found: false }, since JSON has no undefined).
import { z } from "zod";
import type { HostCallMethod } from "@/agents/sandbox/protocol";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation/parse-input";
import type { createFilesStore } from "@/server/host-state/files";
import type { createKvStore } from "@/server/host-state/kv";

type KvStore = ReturnType<typeof createKvStore>;
type FilesStore = ReturnType<typeof createFilesStore>;

const key = z.string();
const kvParams = {
  "kv.get": z.object({ key }),
  "kv.entry": z.object({ key }),
  "kv.put": z.object({ key, value: z.unknown(), ifVersion: z.number().int().min(0).optional() }),
  "kv.delete": z.object({ key }),
  "kv.list": z.object({ prefix: z.string().optional() }),
};

export async function kvCall(store: KvStore, method: HostCallMethod, params: unknown): Promise<unknown> {
  switch (method) {
    case "kv.get": {
      const value = await store.get(parseInput(kvParams[method], params, method).key);
      return value === undefined ? { found: false } : { found: true, value };
    }
    case "kv.entry": {
      const entry = await store.entry(parseInput(kvParams[method], params, method).key);
      return entry === undefined ? { found: false } : { found: true, value: entry };
    }
    case "kv.put": {
      const { key, value, ifVersion } = parseInput(kvParams[method], params, method);
      if (value === undefined) throw new AppError("invalid_input", `kv.put: give a JSON value for ${key}`);
      return store.put(key, value as never, ifVersion === undefined ? undefined : { ifVersion });
    }
    case "kv.delete":
      return store.delete(parseInput(kvParams[method], params, method).key);
    case "kv.list":
      return store.list(parseInput(kvParams[method], params, method).prefix);
    default:
      throw new Error(`${method} is not a kv call`);
  }
}

const scope = z.enum(["session", "deployment"]).optional();
const encoding = z.enum(["utf8", "base64"]).optional();
const path = z.string();
const filesParams = {
  "files.read": z.object({ path, scope, encoding }),
  "files.write": z.object({ path, content: z.string(), scope, encoding }),
  "files.append": z.object({ path, content: z.string(), scope, encoding }),
  "files.list": z.object({ prefix: z.string().optional(), scope }),
  "files.delete": z.object({ path, scope }),
};

export async function filesCall(store: FilesStore, method: HostCallMethod, params: unknown): Promise<unknown> {
  switch (method) {
    case "files.read": {
      const { path, ...options } = parseInput(filesParams[method], params, method);
      const content = await store.read(path, options);
      return content === undefined ? { found: false } : { found: true, value: content };
    }
    case "files.write": {
      const { path, content, ...options } = parseInput(filesParams[method], params, method);
      return store.write(path, content, options);
    }
    case "files.append": {
      const { path, content, ...options } = parseInput(filesParams[method], params, method);
      return store.append(path, content, options);
    }
    case "files.list": {
      const { prefix, ...options } = parseInput(filesParams[method], params, method);
      return store.list(prefix, options);
    }
    case "files.delete": {
      const { path, ...options } = parseInput(filesParams[method], params, method);
      return store.delete(path, options);
    }
    default:
      throw new Error(`${method} is not a files call`);
  }
}
