// Embedded Restate: the `restate-server` binary shipped in the npm package, with its data under
// <data>/restate and every listener on loopback at configurable ports.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { inheritedEnvironment } from "@/env";
import { readOrCreateIdentityKey } from "@/server/durable/request-identity";
import type { Log } from "./child";
import { superviseChild, type SupervisedChild, type Supervision } from "./supervised";
import { isHttpOk, waitFor } from "./wait";

export type RestatePorts = { ingress: number; admin: number; node: number };
/** One node of a cluster (restate-cluster.ts): its name, and the cluster's settings for it. */
export type ClusterNode = { name: string; env: Record<string, string> };
export type EmbeddedRestate = {
  ingressUrl: string;
  adminUrl: string;
  supervised: SupervisedChild;
  /** The public key Restate signs its requests to the worker with (publickeyv1_…). */
  identityKey: string;
  stop: () => Promise<void>;
};

function restateBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = `@restatedev/restate-server-${process.platform}-${process.arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", "restate-server");
  } catch {
    throw new Error(`Restate ships no server binary for this platform (${pkg} is not installed).`);
  }
}

export async function startEmbeddedRestate(options: {
  dataDir: string;
  ports: RestatePorts;
  log: Log;
  supervision?: Supervision;
  node?: ClusterNode;
}): Promise<EmbeddedRestate> {
  const { dataDir, ports, log, supervision, node } = options;
  const baseDir = node ? path.join(dataDir, "restate", node.name) : path.join(dataDir, "restate");
  const logFile = path.join(dataDir, "logs", `${node?.name ?? "restate"}.log`);
  fs.mkdirSync(baseDir, { recursive: true });
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const identity = readOrCreateIdentityKey(dataDir);
  const ingressUrl = `http://127.0.0.1:${ports.ingress}`;
  const adminUrl = `http://127.0.0.1:${ports.admin}`;
  const isHealthy = async () =>
    (await isHttpOk(`${adminUrl}/health`)) && (await isHttpOk(`${ingressUrl}/restate/health`));
  // A restart runs with the same ports and base directory, so it keeps the journal and the
  // worker's registration: in-flight invocations resume where they were.
  const restate = superviseChild(
    {
      name: node?.name ?? "restate",
      command: restateBinary(),
      // A fixed node name keeps the data directory stable when the host name changes.
      args: ["--base-dir", baseDir, "--node-name", node?.name ?? "agentfold", "--no-logo"],
      env: {
        PATH: inheritedEnvironment().PATH,
        RESTATE_BIND_IP: "127.0.0.1",
        RESTATE_LISTEN_MODE: "tcp",
        RESTATE_BIND_PORT: String(ports.node),
        RESTATE_INGRESS__BIND_PORT: String(ports.ingress),
        RESTATE_ADMIN__BIND_PORT: String(ports.admin),
        RESTATE_DISABLE_TELEMETRY: "true",
        RESTATE_LOG_DISABLE_ANSI_CODES: "true",
        // Sized for one machine: fewer partitions start faster, a smaller RocksDB cache.
        RESTATE_DEFAULT_NUM_PARTITIONS: "4",
        RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: "256MiB",
        RESTATE_SHUTDOWN_TIMEOUT: "10s",
        // Every request to the worker is signed; the worker refuses the unsigned (request-identity.ts).
        RESTATE_WORKER__INVOKER__REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE: identity.privateKeyFile,
        ...node?.env,
      },
      logFile,
    },
    log,
    {
      ...supervision,
      waitUntilReady: () => waitFor("Restate to become healthy", isHealthy, { timeoutMs: 60_000 }),
      logFile,
      stopTimeoutMs: 20_000,
    },
  );
  await restate.ready;
  return { ingressUrl, adminUrl, supervised: restate, identityKey: identity.publicKey, stop: () => restate.stop() };
}
