// The ports of cluster mode's own processes, derived from AGENTFOLD_CLUSTER_PORT_BASE (B): web n
// on B+n, Restate node n on B+100n+22 (between nodes), +70 (admin) and +80 (ingress), as Restate's
// 5122, 9070 and 8080; worker n on B+980+n (AGENTFOLD_CLUSTER_WORKERS of them, at most 9).
// Everything stays within B…B+999. The cluster's public
// addresses are the single-node ones (PORT, WORKER_PORT, RESTATE_INGRESS_PORT, RESTATE_ADMIN_PORT):
// proxies listen there (docs/configuration.md, "Cluster mode").
import type { RestatePorts } from "./restate";

export const clusterSize = { restateNodes: 3, webs: 2 } as const;

export type ClusterPorts = { restateNodes: RestatePorts[]; workers: number[]; webs: number[] };

const count = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export function clusterPorts(base: number, workers: number): ClusterPorts {
  return {
    restateNodes: count(clusterSize.restateNodes).map((n) => ({
      node: base + 100 * n + 22,
      admin: base + 100 * n + 70,
      ingress: base + 100 * n + 80,
    })),
    workers: count(workers).map((n) => base + 980 + n),
    webs: count(clusterSize.webs).map((n) => base + n),
  };
}

/** Every derived port with the process that takes it, for the supervisor's start-up check. */
export function clusterPortList(base: number, workers: number): { port: number; component: string }[] {
  const ports = clusterPorts(base, workers);
  return [
    ...ports.webs.map((port, i) => ({ port, component: `web-${i + 1}` })),
    ...ports.workers.map((port, i) => ({ port, component: `worker-${i + 1}` })),
    ...ports.restateNodes.flatMap((node, i) => [
      { port: node.ingress, component: `restate-${i + 1} ingress` },
      { port: node.admin, component: `restate-${i + 1} admin` },
      { port: node.node, component: `restate-${i + 1} node` },
    ]),
  ];
}
