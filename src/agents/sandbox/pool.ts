// One sandbox per agent version, created on first use and shared by that version's sessions.
// A version's sandbox may touch only that agent's workspaces and state root.
import path from "node:path";
import { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox";

export type VersionSandboxSpec = {
  versionId: string;
  bundlePath: string;
  /** `<data>/agents/<agentId>`: its workspaces/ and state/ are the writable directories. */
  agentDir: string;
  /** The agent's declared secrets, by name (none until a secrets store exists). */
  secrets?: Record<string, string>;
};

export type SandboxPool = {
  forVersion: (spec: VersionSandboxSpec) => Sandbox;
  stopAll: () => Promise<void>;
  size: () => number;
};

export function createSandboxPool(defaults: Pick<SandboxOptions, "memoryMb" | "idleMs" | "defaultTimeoutMs" | "onLog" | "onHostCall"> = {}): SandboxPool {
  const sandboxes = new Map<string, Sandbox>();
  return {
    forVersion(spec) {
      let sandbox = sandboxes.get(spec.versionId);
      if (!sandbox) {
        sandbox = createSandbox({
          ...defaults,
          bundlePath: spec.bundlePath,
          writableDirs: [path.join(spec.agentDir, "workspaces"), path.join(spec.agentDir, "state")],
          env: spec.secrets ?? {},
        });
        sandboxes.set(spec.versionId, sandbox);
      }
      return sandbox;
    },
    async stopAll() {
      await Promise.all([...sandboxes.values()].map((sandbox) => sandbox.stop()));
      sandboxes.clear();
    },
    size: () => sandboxes.size,
  };
}
