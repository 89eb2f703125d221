import { describe, expect, it } from "vitest";
import { parseEnv } from "@/env";
import { clusterPortList, clusterPorts } from "./cluster-ports";

describe("cluster mode's ports", () => {
  it("are distinct, within the base's block, and none is a single-node default", () => {
    const defaults = parseEnv({});
    const base = defaults.AGENTFOLD_CLUSTER_PORT_BASE;
    const ports = clusterPortList(base, defaults.AGENTFOLD_CLUSTER_WORKERS).map((p) => p.port);
    expect(ports).toHaveLength(3 * 3 + 2 + 2);
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port - base).toBeGreaterThan(0);
    for (const port of ports) expect(port - base).toBeLessThan(1000);
    const singleNode = [
      defaults.PORT,
      defaults.WORKER_PORT,
      defaults.POSTGRES_PORT,
      defaults.RESTATE_INGRESS_PORT,
      defaults.RESTATE_ADMIN_PORT,
      defaults.RESTATE_NODE_PORT,
    ];
    expect(ports.filter((port) => singleNode.includes(port))).toEqual([]);
  });

  it("follow the base they are given, as documented", () => {
    expect(clusterPorts(30_000, 2)).toEqual({
      webs: [30_001, 30_002],
      workers: [30_981, 30_982],
      restateNodes: [
        { node: 30_122, admin: 30_170, ingress: 30_180 },
        { node: 30_222, admin: 30_270, ingress: 30_280 },
        { node: 30_322, admin: 30_370, ingress: 30_380 },
      ],
    });
    expect(clusterPorts(30_000, 9).workers.at(-1)).toBe(30_989);
  });

  it("refuse a base whose block would pass the last port, and more workers than the block holds", () => {
    expect(() => parseEnv({ AGENTFOLD_CLUSTER_PORT_BASE: "65000" })).toThrow(/AGENTFOLD_CLUSTER_PORT_BASE/);
    expect(parseEnv({ AGENTFOLD_CLUSTER: "1" }).AGENTFOLD_CLUSTER).toBe(true);
    expect(parseEnv({}).AGENTFOLD_CLUSTER).toBe(false);
    expect(parseEnv({}).AGENTFOLD_CLUSTER_WORKERS).toBe(2);
    expect(() => parseEnv({ AGENTFOLD_CLUSTER_WORKERS: "10" })).toThrow(/AGENTFOLD_CLUSTER_WORKERS/);
  });
});
