// Cluster mode's Restate: three `restate-server` nodes from the npm package on this machine, each
// with its own base directory (<data>/restate/restate-<n>) and ports, forming one cluster with
// Restate's replicated metadata and log (its defaults), each log and partition on 2 of the 3 nodes.
// restate-1 provisions the cluster the first time; the others join it. Clients reach the nodes
// through round-robin proxies on the single-node ingress and admin ports, so a node that is down
// is skipped and its partitions move to the others.
import type { Log } from "./child";
import { type EmbeddedRestate, type RestatePorts, startEmbeddedRestate } from "./restate";
import { startRoundRobinProxy } from "./round-robin-proxy";
import type { Supervision } from "./supervised";

export type RestateCluster = {
  nodes: EmbeddedRestate[];
  ingressUrl: string;
  adminUrl: string;
  identityKey: string;
  stop: () => Promise<void>;
};

export const restateClusterName = "agentfold-local";

/** The settings that make node `index` (0-based) one of the cluster of `nodes`. */
export function clusterNodeEnv(nodes: RestatePorts[], index: number): Record<string, string> {
  const address = (ports: RestatePorts) => `http://127.0.0.1:${ports.node}`;
  return {
    RESTATE_CLUSTER_NAME: restateClusterName,
    RESTATE_ADVERTISED_ADDRESS: address(nodes[index]!),
    // Every node runs the metadata server: 3 of them keep a quorum with one down.
    RESTATE_METADATA_CLIENT__ADDRESSES: JSON.stringify(nodes.map(address)),
    // Exactly one node may provision; a restart of it finds the cluster provisioned and joins it.
    RESTATE_AUTO_PROVISION: index === 0 ? "true" : "false",
    RESTATE_DEFAULT_REPLICATION: "2",
    // No snapshot repository: Restate 1.7 accepts only object stores (s3://, gs://, az://) for
    // it, not a local path. Without one the log is not trimmed, which a one-machine cluster for
    // tests and demos can afford; a node that comes back keeps its own data and catches up from
    // the log (docs/configuration.md, "Cluster mode").
  };
}

export async function startRestateCluster(options: {
  dataDir: string;
  nodes: RestatePorts[];
  /** Where the proxies in front of every node's ingress and admin API listen. */
  ports: { ingress: number; admin: number };
  log: Log;
  supervision?: Supervision;
}): Promise<RestateCluster> {
  const { dataDir, nodes, log, supervision } = options;
  // All at once: no node is healthy before the log has the replicas it needs.
  const started = await Promise.allSettled(
    nodes.map((ports, index) =>
      startEmbeddedRestate({
        dataDir,
        ports,
        log,
        supervision,
        node: { name: `restate-${index + 1}`, env: clusterNodeEnv(nodes, index) },
      }),
    ),
  );
  const running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stopNodes = () => Promise.all(running.map((node) => node.stop())).then(() => undefined);
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stopNodes();
    throw failed.reason;
  }
  const host = "127.0.0.1";
  const ingress = await startRoundRobinProxy({
    host,
    port: options.ports.ingress,
    targets: nodes.map((ports) => ({ host, port: ports.ingress })),
  });
  const admin = await startRoundRobinProxy({
    host,
    port: options.ports.admin,
    targets: nodes.map((ports) => ({ host, port: ports.admin })),
  });
  return {
    nodes: running,
    ingressUrl: ingress.url,
    adminUrl: admin.url,
    identityKey: running[0]!.identityKey,
    stop: async () => {
      await Promise.all([ingress.close(), admin.close()]);
      await stopNodes();
    },
  };
}
