// Cluster mode (AGENTFOLD_CLUSTER=1): the scaled-out topology of docs/deploy.md on one machine,
// for tests and demos. A 3-node Restate cluster, 2 workers and 2 webs, each supervised like the
// single-node parts, with round-robin proxies where single-node mode has one process: the webs on
// PORT, the workers on WORKER_PORT (the one address registered with Restate), the Restate nodes on
// RESTATE_INGRESS_PORT and RESTATE_ADMIN_PORT. The processes and their code are the same as in
// single-node mode; only their configuration differs.
import type { Env } from "@/env";
import type { DurableRuntime } from "@/server/durable/runtime";
import type { Log } from "./child";
import { clusterPortList, clusterPorts } from "./cluster-ports";
import { startRestateCluster } from "./restate-cluster";
import { startRoundRobinProxy } from "./round-robin-proxy";
import type { SupervisedChild, Supervision } from "./supervised";
import { startWeb } from "./web";
import { startWorker } from "./worker";

export type PortCheck = { port: number; host: string; component: string; variable: string };

/** A part of the stack once started: how to stop it, and its lines for the ready summary. */
export type Started = { stop: () => Promise<void>; lines: string[] };

type Parts = { config: Env; env: NodeJS.ProcessEnv; log: Log; supervision: Supervision };

/** The ports cluster mode's own processes take, besides the single-node ones its proxies take. */
export function clusterPortChecks(config: Env): PortCheck[] {
  return clusterPortList(config.AGENTFOLD_CLUSTER_PORT_BASE, config.AGENTFOLD_CLUSTER_WORKERS).map(
    ({ port, component }) => ({
      port,
      // Webs and workers listen where single-node ones would; Restate nodes on loopback only.
      host: component.startsWith("restate") ? "127.0.0.1" : config.AGENTFOLD_HOST,
      component,
      variable: "AGENTFOLD_CLUSTER_PORT_BASE",
    }),
  );
}

export async function startClusterRestate(
  options: Omit<Parts, "env">,
): Promise<Started & { identityKey: string; ingressUrl: string; adminUrl: string }> {
  const { config, log, supervision } = options;
  const cluster = await startRestateCluster({
    dataDir: config.dataDir,
    nodes: clusterPorts(config.AGENTFOLD_CLUSTER_PORT_BASE, config.AGENTFOLD_CLUSTER_WORKERS).restateNodes,
    ports: { ingress: config.RESTATE_INGRESS_PORT, admin: config.RESTATE_ADMIN_PORT },
    log,
    supervision,
  });
  const lines = cluster.nodes.map(
    (node, i) =>
      `restate-${i + 1} embedded  ingress ${node.ingressUrl}  admin ${node.adminUrl}  (pid ${node.supervised.current().pid})`,
  );
  lines.push(`restate   cluster of ${cluster.nodes.length}  ingress ${cluster.ingressUrl}  admin ${cluster.adminUrl}`);
  return { ...cluster, lines };
}

/** The workers, then the proxy in front of them, registered with Restate once as the one address. */
export async function startClusterWorkers(options: Parts & { runtime: DurableRuntime }): Promise<Started> {
  const { config, env, runtime, log, supervision } = options;
  const ports = clusterPorts(config.AGENTFOLD_CLUSTER_PORT_BASE, config.AGENTFOLD_CLUSTER_WORKERS).workers;
  const workers = await startAll(ports, (port, name) =>
    startWorker({
      workerUrl: `http://${connectHost(config)}:${port}`,
      env: { ...env, WORKER_PORT: String(port) },
      log,
      supervision,
      name,
    }),
  );
  const proxy = await startRoundRobinProxy({
    host: config.AGENTFOLD_HOST,
    port: config.WORKER_PORT,
    targets: ports.map((port) => ({ host: connectHost(config), port })),
  });
  const stop = async () => {
    await proxy.close();
    await Promise.all(workers.map((worker) => worker.stop()));
  };
  try {
    await runtime.registerWorker(config.workerUrl);
  } catch (error) {
    await stop();
    throw error;
  }
  const lines = workers.map(
    (worker, i) => `worker-${i + 1}  ${connectHost(config)}:${ports[i]}  (pid ${worker.current().pid})`,
  );
  lines.push(`worker    ${config.workerUrl}  (round robin over ${workers.length}, registered with Restate)`);
  return { stop, lines };
}

/** The webs (the app is built already), then the proxy on PORT in front of them. */
export async function startClusterWebs(options: Parts): Promise<Started> {
  const { config, env, log, supervision } = options;
  const ports = clusterPorts(config.AGENTFOLD_CLUSTER_PORT_BASE, config.AGENTFOLD_CLUSTER_WORKERS).webs;
  // One at a time: two Next.js apps loading at once on two cores take longer than in turn.
  const webs: SupervisedChild[] = [];
  const stopWebs = () => Promise.all(webs.map((web) => web.stop())).then(() => undefined);
  try {
    for (const [i, port] of ports.entries()) {
      webs.push(await startWeb({ host: config.AGENTFOLD_HOST, port, env, log, supervision, name: `web-${i + 1}` }));
    }
  } catch (error) {
    await stopWebs();
    throw error;
  }
  const proxy = await startRoundRobinProxy({
    host: config.AGENTFOLD_HOST,
    port: config.PORT,
    targets: ports.map((port) => ({ host: connectHost(config), port })),
  });
  const lines = webs.map(
    (web, i) => `web-${i + 1}     http://${connectHost(config)}:${ports[i]}  (pid ${web.current().pid})`,
  );
  lines.push(`web       ${config.webUrl}  (round robin over ${webs.length})`);
  return {
    stop: async () => {
      await proxy.close();
      await stopWebs();
    },
    lines,
  };
}

async function startAll(
  ports: number[],
  start: (port: number, name: string) => Promise<SupervisedChild>,
): Promise<SupervisedChild[]> {
  const started = await Promise.allSettled(ports.map((port, i) => start(port, `worker-${i + 1}`)));
  const running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(running.map((child) => child.stop()));
    throw failed.reason;
  }
  return running;
}

function connectHost(config: Env): string {
  return ["0.0.0.0", "::"].includes(config.AGENTFOLD_HOST) ? "127.0.0.1" : config.AGENTFOLD_HOST;
}
