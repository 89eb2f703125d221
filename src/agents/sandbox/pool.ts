// The sandboxes of each agent version, created on first use and shared by that version's
// sessions. A version has up to `maxPerVersion` sandbox processes: a call goes to one with
// nothing in flight, a new one is started while all are busy, so a tool spinning until its
// deadline holds up only the calls that share its process. A version's sandboxes may write only
// that agent's workspaces (enter, not list: storage.ts) and its state root.
import fs from "node:fs";
import path from "node:path";
import { handOver } from "@/agents/runtime/workspace-owner";
import { env } from "@/env";
import { agentEgressPolicy, type EgressPolicy } from "./egress-policy";
import { spawnIsolatedCommand, type CommandSpec, type IsolatedCommand } from "./isolated-command";
import type { SandboxIsolation } from "./isolation";
import { createSandbox, defaultIsolation, type Sandbox, type SandboxOptions } from "./sandbox";

export type VersionSandboxSpec = {
  versionId: string;
  bundlePath: string;
  /** The version's uploaded project folder (read-only; the working directory). */
  projectDir: string;
  /** `<data>/agents/<agentId>`: its workspaces/ and state/ are the writable directories. */
  agentDir: string;
};

export type SandboxPool = {
  forVersion: (spec: VersionSandboxSpec) => Sandbox;
  /** A command of the version's own (a stdio MCP server) inside the same walls, no network. */
  spawnCommand: (spec: VersionSandboxSpec, command: CommandSpec, onStderr?: (line: string) => void) => IsolatedCommand;
  stopAll: () => Promise<void>;
  size: () => number;
};

export type SandboxPoolOptions = Pick<
  SandboxOptions,
  | "memoryMb"
  | "idleMs"
  | "defaultTimeoutMs"
  | "onLog"
  | "onCallLog"
  | "onHostCall"
  | "resolveEgress"
  | "nodePermissions"
> & {
  isolation?: SandboxIsolation;
  /** The instance's egress policy; AGENTFOLD_EGRESS by default. */
  egress?: EgressPolicy;
  /** A version's `hosting.egressDomains` (its manifest), read once per version. */
  declaredEgress?: (versionId: string) => Promise<readonly string[] | undefined>;
  /** A version's declared secrets, read before each call. */
  readSecrets?: (versionId: string) => Promise<Record<string, string>>;
  maxPerVersion?: number;
};

export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  const { declaredEgress, readSecrets, maxPerVersion = 4, egress, ...defaults } = options;
  const versions = new Map<string, Sandbox>();
  return {
    forVersion(spec) {
      let sandbox = versions.get(spec.versionId);
      if (!sandbox) {
        const policy = (async () =>
          agentEgressPolicy(egress ?? env().AGENTFOLD_EGRESS, await declaredEgress?.(spec.versionId)))();
        policy.catch(() => undefined);
        sandbox = versionSandboxes(maxPerVersion, async () => {
          const writableDirs = agentWritableDirs(spec.agentDir);
          return createSandbox({
            ...defaults,
            bundlePath: spec.bundlePath,
            projectDir: spec.projectDir,
            writableDirs,
            egress: await policy,
            readSecrets: readSecrets && (() => readSecrets(spec.versionId)),
          });
        });
        versions.set(spec.versionId, sandbox);
      }
      return sandbox;
    },
    spawnCommand(spec, command, onStderr) {
      return spawnIsolatedCommand(command, {
        isolation: defaults.isolation ?? defaultIsolation(),
        projectDir: spec.projectDir,
        readOnly: [path.dirname(path.resolve(spec.bundlePath))].filter((dir) => fs.existsSync(dir)),
        writable: agentWritableDirs(spec.agentDir),
        memoryMb: defaults.memoryMb ?? 256,
        onStderr,
      });
    },
    async stopAll() {
      await Promise.all([...versions.values()].map((sandbox) => sandbox.stop()));
      versions.clear();
    },
    size: () => versions.size,
  };
}

/** One version's processes behind one Sandbox: each call goes to the least busy, a new process
 * is added while every one has calls in flight. */
function versionSandboxes(max: number, create: () => Promise<Sandbox>): Sandbox {
  const members: { sandbox: Promise<Sandbox>; load: number; started?: Sandbox }[] = [];
  const pick = () => {
    const idle = members.find((member) => member.load === 0);
    if (idle) return idle;
    if (members.length < max) {
      const member: (typeof members)[number] = { sandbox: create(), load: 0 };
      member.sandbox.then((sandbox) => (member.started = sandbox)).catch(() => undefined);
      members.push(member);
      return member;
    }
    return members.reduce((least, member) => (member.load < least.load ? member : least));
  };
  return {
    async call(method, params, callOptions) {
      const member = pick();
      member.load++;
      try {
        return await (await member.sandbox).call(method, params, callOptions);
      } finally {
        member.load--;
      }
    },
    async stop() {
      const stopping = members.splice(0).map(async (member) => (await member.sandbox.catch(() => undefined))?.stop());
      await Promise.all(stopping);
    },
    pid: () => members[0]?.started?.pid(),
  };
}

/**
 * The agent's workspaces root (the platform's: agent code may enter it, not list it) and its
 * state root (agent code's own), made once per version's sandboxes.
 */
function agentWritableDirs(agentDir: string): string[] {
  const workspaces = path.join(agentDir, "workspaces");
  const state = path.join(agentDir, "state");
  fs.mkdirSync(workspaces, { recursive: true });
  fs.chmodSync(workspaces, 0o711);
  fs.mkdirSync(state, { recursive: true });
  handOver(state);
  return [workspaces, state];
}
