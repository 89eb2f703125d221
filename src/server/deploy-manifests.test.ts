// The scaled-out deployment's files against docs/deploy.md and src/env.ts. No Docker engine or
// Kubernetes cluster runs on the project's machines, so nothing starts them: this test is what
// keeps a variable, a port or an address from drifting out of step between them.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { envSchema, parseEnv } from "@/env";
import { defaultUploadLimits } from "@/server/agents/intake/upload-limits";
import { identityPublicKey } from "@/server/durable/request-identity";
import {
  codeSpans,
  composeInstances,
  type Instance,
  interpolate,
  kubernetesInstances,
  manifest,
  type Manifest,
  markdownTable,
  readCompose,
  readHaproxy,
  readManifests,
  readRepoFile,
  repoRoot,
  requiredInterpolations,
  resolveKubernetes,
  type Role,
  variableRows,
} from "@/testing/deploy-files";

const docs = readRepoFile("docs/deploy.md");
const rows = variableRows(docs);
const otherPrograms = markdownTable(docs, "| Variable | Read by |").flatMap((cells) => codeSpans(cells[0]!));
const schemaKeys = Object.keys(envSchema.shape);
const defaults = parseEnv({}) as Record<string, unknown>;
const compose = readCompose();
const composeText = readRepoFile("deploy/docker-compose.yml");
const haproxy = readHaproxy();
const manifests = readManifests();
const instances = [...composeInstances(compose), ...kubernetesInstances(manifests)];
const agentfold = instances.filter((instance) => instance.role !== undefined);

// What an operator puts in deploy/.env and the Secret agentfold-secrets, as docs/deploy.md makes them.
const identityKey = identityPublicKey(
  crypto.generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
);
const secretValues: Record<string, string> = {
  POSTGRES_PASSWORD: crypto.randomBytes(24).toString("hex"),
  SNAPSHOTS_PASSWORD: crypto.randomBytes(24).toString("hex"),
  AGENTFOLD_SECRET_KEY: crypto.randomBytes(32).toString("base64"),
  AUTH_SECRET: crypto.randomBytes(32).toString("base64"),
  RESTATE_IDENTITY_KEYS: identityKey,
  DATABASE_URL: "postgresql://agentfold:secret@db.internal:5432/agentfold?sslmode=require",
};

/** The environment an instance starts with. */
function environmentOf(instance: Instance): Record<string, string> {
  if (instance.where.startsWith("compose:"))
    return Object.fromEntries(
      [...instance.env].map(([name, source]) => [
        name,
        interpolate(source.kind === "literal" ? source.text : "", secretValues),
      ]),
    );
  return resolveKubernetes(instance, manifests, secretValues);
}

const rowOf = (name: string) => rows.find((row) => row.names.includes(name));
const usesOf = (role: Role) => rows.flatMap((row) => row.names.map((name) => [name, row.uses[role]] as const));
const urlOf = (text: string) => new URL(text);
const wildcards = ["0.0.0.0", "::"];

describe("docs/deploy.md's variables", () => {
  test("name every variable src/env.ts defines, each once, and no other", () => {
    const documented = rows.flatMap((row) => row.names);
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
    expect([...documented].sort()).toEqual([...schemaKeys].sort());
  });

  test("give src/env.ts's defaults", () => {
    for (const row of rows.filter((candidate) => candidate.defaults.length === candidate.names.length)) {
      row.names.forEach((name, index) => {
        const [literal, ...more] = codeSpans(row.defaults[index]!);
        const value = defaults[name];
        const isPlain = more.length === 0 && row.defaults[index] === `\`${literal}\``;
        if (isPlain && (typeof value === "string" || typeof value === "number"))
          expect(`${name}=${literal}`).toBe(`${name}=${value}`);
      });
    }
  });

  test("keep other programs' variables apart from Agentfold's", () => {
    expect(otherPrograms.filter((name) => schemaKeys.includes(name))).toEqual([]);
  });
});

test("the other containers set only variables docs/deploy.md names as other programs'", () => {
  const isNamed = (name: string) =>
    otherPrograms.some((entry) => (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name));
  const others = instances.filter((instance) => instance.role === undefined);
  expect(
    others.flatMap((i) => [...i.env.keys()].filter((name) => !isNamed(name)).map((name) => `${i.where} ${name}`)),
  ).toEqual([]);
});

describe.each(agentfold.map((instance) => [instance.where, instance] as const))("%s", (_, instance) => {
  const role = instance.role!;

  test("sets every variable its process must have", () => {
    const missing = usesOf(role).filter(([name, use]) => use === "must" && !instance.env.has(name));
    expect(missing.map(([name]) => name)).toEqual([]);
  });

  test("sets only variables src/env.ts defines, and only ones its process reads", () => {
    expect([...instance.env.keys()].filter((name) => !schemaKeys.includes(name))).toEqual([]);
    // Kubernetes' one ConfigMap goes to web and worker pods alike; the rest is set per process.
    const own = [...instance.env].filter(([, source]) => source.kind !== "configMap").map(([name]) => name);
    expect(own.filter((name) => rowOf(name)?.uses[role] === "no")).toEqual([]);
  });

  test("starts with an environment that parses", () => {
    const config = parseEnv(environmentOf(instance));
    if (role !== "migrate") expect(config.isExternalRestate).toBe(true);
    expect(config.isExternalDatabase).toBe(true);
    if (role === "worker") {
      expect(config.RESTATE_IDENTITY_KEYS).toEqual([identityKey]);
      // Restate reaches it from another host.
      expect(wildcards).toContain(config.AGENTFOLD_HOST);
    }
    if (role === "web") {
      expect(wildcards).toContain(config.AGENTFOLD_WEB_HOST);
      // The local-caller check is told where the web listens: never loopback only, when it is not.
      expect(config.AGENTFOLD_HOST).toBe(config.AGENTFOLD_WEB_HOST);
      expect(config.NODE_ENV).toBe("production");
    }
  });

  test("runs an entry that exists, from the one image", () => {
    expect(instance.image).toBe("agentfold:latest");
    expect(instance.command.slice(0, 3)).toEqual(["node", "--import", "tsx"]);
    expect(fs.existsSync(path.join(repoRoot, instance.command[3]!))).toBe(true);
  });
});

describe("what must be the same everywhere", () => {
  const shared = rows.filter((row) => row.isShared).flatMap((row) => row.names);

  test.each([["compose:"], ["kubernetes:"]])("%s every process reading it takes it from one source", (prefix) => {
    for (const name of shared) {
      const readers = agentfold.filter((i) => i.where.startsWith(prefix) && rowOf(name)!.uses[i.role!] !== "no");
      // Unset on one reader and set on another is two values too.
      const sources = new Set(readers.map((i) => JSON.stringify(i.env.get(name) ?? "unset")));
      expect(sources.size, name).toBe(1);
    }
  });

  test("web and worker processes mount one volume at AGENTFOLD_DATA_DIR", () => {
    for (const prefix of ["compose:", "kubernetes:"]) {
      const processes = agentfold.filter((i) => i.where.startsWith(prefix) && ["web", "worker"].includes(i.role!));
      const mounts = processes.map((i) => {
        const dataDir = environmentOf(i).AGENTFOLD_DATA_DIR;
        return [...i.mounts].filter(([, mountPath]) => mountPath === dataDir).map(([volume]) => volume);
      });
      expect(mounts.every((volumes) => volumes.length === 1 && volumes[0] === mounts[0]![0])).toBe(true);
    }
    const claim = manifest(manifests, "PersistentVolumeClaim", kubernetesData()).spec;
    expect(claim.accessModes).toContain("ReadWriteMany");
  });
});

function kubernetesData(): string {
  const web = agentfold.find((i) => i.where === "kubernetes:Deployment/agentfold-web")!;
  return [...web.mounts].find(([, mountPath]) => mountPath === environmentOf(web).AGENTFOLD_DATA_DIR)![0];
}

describe("deploy/docker-compose.yml", () => {
  const byRole = (role: Role) => agentfold.filter((i) => i.where.startsWith("compose:") && i.role === role);
  const restateNodes = instances.filter(
    (i) => i.where.startsWith("compose:") && i.image.includes("restatedev/restate"),
  );
  const serviceName = (instance: Instance) => instance.where.slice("compose:".length);
  const lbName = Object.keys(compose.services).find((name) => compose.services[name]!.image.startsWith("haproxy"))!;
  /** Where HAProxy sends what reaches it at `url`: the servers of the frontend bound to its port. */
  const servers = (url: URL) => {
    expect(url.hostname).toBe(lbName);
    const frontend = [...haproxy].find(
      ([name, proxy]) => name.startsWith("frontend") && proxy.binds.some((b) => b.port === Number(url.port)),
    );
    const backend = haproxy.get(`backend ${frontend![1].backend}`)!;
    return { frontend: frontend![1], hosts: backend.servers.map(({ host, port }) => `${host}:${port}`).sort() };
  };

  test("has 2 web processes, 2 workers, 3 Restate nodes, one migrate and one register", () => {
    expect(
      [byRole("web"), byRole("worker"), restateNodes, byRole("migrate"), byRole("register")].map((l) => l.length),
    ).toEqual([2, 2, 3, 1, 1]);
  });

  test("balances the web processes at the port they listen on, published on the host", () => {
    const ports = byRole("web").map((web) => `${serviceName(web)}:${parseEnv(environmentOf(web)).AGENTFOLD_WEB_PORT}`);
    const publicUrl = urlOf(environmentOf(byRole("web")[0]!).AGENTFOLD_PUBLIC_URL!);
    const published = compose.services[lbName]!.ports!.map((port) => port.split(":"));
    const [, inside] = published.find(([host]) => host === (publicUrl.port || "80"))!;
    expect(servers(new URL(`http://${lbName}:${inside}`)).hosts).toEqual(ports.sort());
  });

  test("reaches every worker at its WORKER_PORT through WORKER_URL, over HTTP/2", () => {
    const workers = byRole("worker").map((w) => `${serviceName(w)}:${parseEnv(environmentOf(w)).WORKER_PORT}`);
    for (const instance of [...byRole("web"), ...byRole("register")]) {
      const { frontend, hosts } = servers(urlOf(environmentOf(instance).WORKER_URL!));
      expect(hosts).toEqual(workers.sort());
      expect(frontend.binds.every((bind) => bind.isH2)).toBe(true);
    }
  });

  test("reaches every Restate node's ingress and admin API at Restate's ports", () => {
    const at = (port: unknown) => restateNodes.map((node) => `${serviceName(node)}:${port}`).sort();
    for (const instance of agentfold.filter((i) => i.where.startsWith("compose:") && i.role !== "migrate")) {
      const env = environmentOf(instance);
      expect(servers(urlOf(env.RESTATE_INGRESS_URL!)).hosts).toEqual(at(defaults.RESTATE_INGRESS_PORT));
      expect(servers(urlOf(env.RESTATE_ADMIN_URL!)).hosts).toEqual(at(defaults.RESTATE_ADMIN_PORT));
    }
  });

  test("forms one Restate cluster: each node named, advertised and listed once, one provisioner", () => {
    const envs = restateNodes.map((node) => environmentOf(node));
    const advertised = restateNodes.map((node) => `http://${serviceName(node)}:${defaults.RESTATE_NODE_PORT}`);
    expect(envs.map((env) => env.RESTATE_ADVERTISED_ADDRESS)).toEqual(advertised);
    expect(envs.map((env) => env.RESTATE_NODE_NAME)).toEqual(restateNodes.map(serviceName));
    for (const env of envs)
      expect(JSON.parse(env.RESTATE_METADATA_CLIENT__ADDRESSES!).sort()).toEqual(advertised.sort());
    expect(new Set(envs.map((env) => env.RESTATE_CLUSTER_NAME)).size).toBe(1);
    expect(envs.filter((env) => env.RESTATE_AUTO_PROVISION === "true")).toHaveLength(1);
    expectReplicationSurvivesOneNode(envs[0]!, envs.length);
  });

  test("signs with one key, mounted into every Restate node", () => {
    for (const node of restateNodes) {
      const service = compose.services[serviceName(node)]!;
      const file = environmentOf(node).RESTATE_WORKER__INVOKER__REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE!;
      expect(service.secrets!.map((secret) => `/run/secrets/${secret}`)).toContain(file);
      expect(compose.secrets![path.basename(file)]!.file).toBe("./restate-identity.pem");
    }
    expect(docs).toContain("openssl genpkey -algorithm ed25519 -out deploy/restate-identity.pem");
  });

  test("trusts X-Forwarded-For from the load balancer's address only", () => {
    const address = compose.services[lbName]!.networks!.default!.ipv4_address!;
    for (const web of byRole("web")) expect(parseEnv(environmentOf(web)).AGENTFOLD_TRUSTED_PROXIES).toEqual([address]);
  });

  test("takes from deploy/.env only what docs/deploy.md puts there", () => {
    const envFile = docs.match(/cat > deploy\/\.env <<EOF\n([\s\S]*?)\nEOF/)![1]!;
    const written = envFile.split("\n").map((line) => line.split("=")[0]);
    expect([...new Set(requiredInterpolations(composeText))].filter((name) => !written.includes(name))).toEqual([]);
  });
});

describe("deploy/kubernetes/", () => {
  const workload = (kind: string, name: string) => manifest(manifests, kind, name);
  const instance = (kind: string, name: string) => agentfold.find((i) => i.where === `kubernetes:${kind}/${name}`)!;
  const web = instance("Deployment", "agentfold-web");
  const worker = instance("Deployment", "agentfold-worker");
  const restate = workload("StatefulSet", "restate");
  const containerPort = (item: Manifest, name: string) =>
    item.spec.template.spec.containers[0].ports.find((port: any) => port.name === name).containerPort;
  /** The container port a Service's port reaches, by the port's number. */
  const serviceTarget = (service: string, port: number, pods: Manifest) => {
    const entry = workload("Service", service).spec.ports.find((candidate: any) => candidate.port === port);
    return typeof entry.targetPort === "number" ? entry.targetPort : containerPort(pods, entry.targetPort);
  };

  test("runs 2 web pods, 2 worker pods and 3 Restate nodes", () => {
    expect([web.replicas, worker.replicas, restate.spec.replicas]).toEqual([2, 2, 3]);
  });

  test("routes the Ingress to the web's port", () => {
    const port = parseEnv(resolveKubernetes(web, manifests, secretValues)).AGENTFOLD_WEB_PORT;
    expect(containerPort(workload("Deployment", "agentfold-web"), "http")).toBe(port);
    const backend = workload("Ingress", "agentfold").spec.rules[0].http.paths[0].backend.service;
    const servicePort = workload("Service", backend.name).spec.ports.find(
      (p: any) => p.name === backend.port.name,
    ).port;
    expect(serviceTarget(backend.name, servicePort, workload("Deployment", "agentfold-web"))).toBe(port);
    expect(new URL(parseEnv(resolveKubernetes(web, manifests, secretValues)).publicUrl).hostname).toBe(
      workload("Ingress", "agentfold").spec.rules[0].host,
    );
  });

  test("takes uploads as large as the archive limit through the Ingress", () => {
    const limit = workload("Ingress", "agentfold").metadata.annotations![
      "nginx.ingress.kubernetes.io/proxy-body-size"
    ]!.match(/^(\d+)m$/)!;
    expect(Number(limit[1]) * 1024 * 1024).toBeGreaterThanOrEqual(defaultUploadLimits.maxArchiveBytes);
  });

  test("reaches the workers' port through WORKER_URL, and Restate's ingress and admin ports", () => {
    for (const client of agentfold.filter((i) => i.where.startsWith("kubernetes:") && i.role !== "migrate")) {
      const config = parseEnv(resolveKubernetes(client, manifests, secretValues));
      const workerUrl = urlOf(config.workerUrl);
      const workerPort = parseEnv(resolveKubernetes(worker, manifests, secretValues)).WORKER_PORT;
      expect(
        serviceTarget(workerUrl.hostname, Number(workerUrl.port), workload("Deployment", "agentfold-worker")),
      ).toBe(workerPort);
      const ingress = urlOf(config.restateIngressUrl);
      const admin = urlOf(config.restateAdminUrl);
      expect(serviceTarget(ingress.hostname, Number(ingress.port), restate)).toBe(defaults.RESTATE_INGRESS_PORT);
      expect(serviceTarget(admin.hostname, Number(admin.port), restate)).toBe(defaults.RESTATE_ADMIN_PORT);
    }
    expect(containerPort(restate, "node")).toBe(defaults.RESTATE_NODE_PORT);
  });

  test("forms one Restate cluster from the StatefulSet's pods", () => {
    const node = kubernetesInstances([restate])[0]!;
    const pods = Array.from({ length: restate.spec.replicas }, (_, ordinal) => `${restate.metadata.name}-${ordinal}`);
    const envs = pods.map((pod) => resolveKubernetes(node, manifests, secretValues, { "metadata.name": pod }));
    const headless = workload("Service", restate.spec.serviceName).spec;
    expect(headless.clusterIP).toBe("None");
    const advertised = pods.map((pod) => `http://${pod}.${restate.spec.serviceName}:${defaults.RESTATE_NODE_PORT}`);
    expect(envs.map((env) => env.RESTATE_ADVERTISED_ADDRESS)).toEqual(advertised);
    expect(envs.map((env) => env.RESTATE_NODE_NAME)).toEqual(pods);
    expect(JSON.parse(envs[0]!.RESTATE_METADATA_CLIENT__ADDRESSES!).sort()).toEqual(advertised.sort());
    expect(docs).toContain(`exec ${pods[0]} -- restatectl provision --yes`);
    expectReplicationSurvivesOneNode(envs[0]!, pods.length);
  });

  test("mounts the signing key Restate is told to read", () => {
    const pod = restate.spec.template.spec;
    const file = resolveKubernetes(kubernetesInstances([restate])[0]!, manifests, {})
      .RESTATE_WORKER__INVOKER__REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE!;
    const mount = pod.containers[0].volumeMounts.find((m: any) => m.mountPath === path.dirname(file));
    const secret = pod.volumes.find((v: any) => v.name === mount.name).secret.secretName;
    expect(docs).toContain(`create secret generic ${secret} --from-file=${path.basename(file)}=`);
  });

  test("reads from agentfold-secrets exactly the keys docs/deploy.md puts there", () => {
    const keys = agentfold
      .filter((i) => i.where.startsWith("kubernetes:"))
      .flatMap((i) => [...i.env.values()])
      .flatMap((source) => (source.kind === "secret" && source.name === "agentfold-secrets" ? [source.key] : []));
    const command = docs.match(/create secret generic agentfold-secrets((?:[^\n]*\\\n)*[^\n]*)/)![1]!;
    const documented = [...command.matchAll(/--from-literal=([A-Z0-9_]+)=/g)].map((match) => match[1]);
    expect([...new Set(keys)].sort()).toEqual(documented.sort());
  });
});

test("Restate's image is the version package.json pins for the embedded Restate", () => {
  const pinned = JSON.parse(readRepoFile("package.json")).dependencies["@restatedev/restate-server"];
  const images = instances.filter((i) => i.image.includes("restatedev/restate")).map((i) => i.image);
  expect(images.length).toBeGreaterThan(0);
  for (const image of images) expect(image).toBe(`docker.restate.dev/restatedev/restate:${pinned}`);
});

test("the image is Node's major version package.json asks for, with bubblewrap, running the web", () => {
  const dockerfile = readRepoFile("deploy/Dockerfile");
  const major = JSON.parse(readRepoFile("package.json")).engines.node.match(/(\d+)/)[1];
  expect(dockerfile).toMatch(new RegExp(`^FROM node:${major}-bookworm-slim$`, "m"));
  expect(dockerfile).toMatch(/apt-get install[^\n]*\n?[^\n]*bubblewrap/);
  const web = agentfold.find((i) => i.where === "kubernetes:Deployment/agentfold-web")!;
  expect(dockerfile).toContain(`CMD ${JSON.stringify(web.command).replaceAll(",", ", ")}`);
});

function expectReplicationSurvivesOneNode(env: Record<string, string>, nodes: number): void {
  const replication = Number(env.RESTATE_DEFAULT_REPLICATION);
  // Writes need `replication` live nodes; with 2r - 1 nodes, r - 1 may fail (Restate's cluster docs).
  expect(replication).toBeGreaterThanOrEqual(2);
  expect(2 * replication - 1).toBeLessThanOrEqual(nodes);
}
