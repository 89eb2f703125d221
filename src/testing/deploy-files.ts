// Reads the scaled-out deployment's files (deploy/, docs/deploy.md) into one shape, for
// src/server/deploy-manifests.test.ts: each process as it would start, with where each of its
// variables comes from, whatever file it is declared in.
import fs from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";

export const repoRoot = path.resolve(import.meta.dirname, "../..");
export const readRepoFile = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8");

export type Role = "web" | "worker" | "migrate" | "register";

/** Where a variable's value comes from: two processes with equal sources get the same value. */
export type Source =
  | { kind: "literal"; text: string }
  | { kind: "secret"; name: string; key: string }
  | { kind: "configMap"; name: string; key: string }
  | { kind: "field"; path: string };

export type Instance = {
  /** `compose:web-1`, `kubernetes:Deployment/agentfold-web`. */
  where: string;
  /** The Agentfold process it runs, from its command; undefined for the other images. */
  role: Role | undefined;
  image: string;
  command: string[];
  env: Map<string, Source>;
  /** Volume name (Compose) or claim name (Kubernetes) → mount path. */
  mounts: Map<string, string>;
  replicas: number;
};

export function roleOf(command: string[]): Role | undefined {
  const entry = command.find((part) => part.endsWith(".ts"));
  if (entry === "src/server/web/main.ts") return "web";
  if (entry === "src/server/worker/main.ts") return "worker";
  const step = command.at(-1);
  if (entry === "src/server/setup/main.ts" && (step === "migrate" || step === "register")) return step;
  return undefined;
}

// --- docs/deploy.md ---

export type Use = "must" | "reads" | "no";
export type VariableRow = { names: string[]; uses: Record<Role, Use>; defaults: string[]; isShared: boolean };

/** The rows of the Markdown table whose header line starts with `header`. */
export function markdownTable(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.replace(/\s+/g, " ").startsWith(header));
  if (start < 0) throw new Error(`docs/deploy.md has no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** A cell's comma-separated items; commas inside `code` stay. */
function splitOutsideCode(cell: string): string[] {
  const items = [""];
  let isInCode = false;
  for (const char of cell) {
    if (char === "`") isInCode = !isInCode;
    if (char === "," && !isInCode) items.push("");
    else items[items.length - 1] += char;
  }
  return items.map((item) => item.trim());
}

export const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

export function variableRows(markdown: string): VariableRow[] {
  const use = (cell: string): Use => (cell === "must" ? "must" : cell === "✓" ? "reads" : "no");
  return markdownTable(markdown, "| Variable | web | worker | migrate | register |").map((cells) => ({
    names: codeSpans(cells[0]!),
    uses: { web: use(cells[1]!), worker: use(cells[2]!), migrate: use(cells[3]!), register: use(cells[4]!) },
    defaults: splitOutsideCode(cells[5]!),
    isShared: cells[6] === "yes",
  }));
}

// --- deploy/docker-compose.yml ---

export type Compose = {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file: string }>;
};
export type ComposeService = {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  secrets?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
};

export function readCompose(): Compose {
  return parse(readRepoFile("deploy/docker-compose.yml"), { merge: true }) as Compose;
}

export function composeInstances(compose: Compose): Instance[] {
  return Object.entries(compose.services).map(([name, service]) => {
    const command = service.command ?? [];
    const env = new Map<string, Source>(
      Object.entries(service.environment ?? {}).map(([key, text]) => [key, { kind: "literal", text: String(text) }]),
    );
    const mounts = new Map(
      (service.volumes ?? []).map((volume) => volume.split(":") as [string, string]).map(([from, to]) => [from, to]),
    );
    const role = service.image === "agentfold:latest" ? roleOf(command) : undefined;
    return { where: `compose:${name}`, role, image: service.image, command, env, mounts, replicas: 1 };
  });
}

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}`, from `values` or the default. */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const value = values[name] ?? (kind === "-" ? rest : undefined);
    if (value === undefined) throw new Error(`no value for \${${name}}`);
    return value;
  });
}

/** `${NAME}` references that have no default: what deploy/.env must set. */
export function requiredInterpolations(text: string): string[] {
  return [...text.matchAll(/\$\{([A-Z0-9_]+)(?::\?[^}]*)?\}/g)].map((match) => match[1]!);
}

// --- deploy/haproxy.cfg ---

export type Proxy = {
  binds: { port: number; isH2: boolean }[];
  backend?: string;
  servers: { host: string; port: number }[];
};

/** Frontends and backends by name: what each binds, where it sends, which servers it holds. */
export function readHaproxy(): Map<string, Proxy> {
  const sections = new Map<string, Proxy>();
  let current: Proxy | undefined;
  for (const raw of readRepoFile("deploy/haproxy.cfg").split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    const [word, ...rest] = line.split(/\s+/);
    if (word === "frontend" || word === "backend") {
      current = { binds: [], servers: [] };
      sections.set(`${word} ${rest[0]}`, current);
    } else if (["global", "defaults", "resolvers"].includes(word ?? "")) {
      current = undefined;
    } else if (current && word === "bind") {
      current.binds.push({ port: Number(rest[0]!.split(":").at(-1)), isH2: line.includes("proto h2") });
    } else if (current && word === "default_backend") {
      current.backend = rest[0];
    } else if (current && word === "server") {
      const [host, port] = rest[1]!.split(":");
      current.servers.push({ host: host!, port: Number(port) });
    }
  }
  return sections;
}

// --- deploy/kubernetes/ ---

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: every kind's spec, read by path in the test
  spec?: any;
  data?: Record<string, string>;
};
type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
  };
};
type Container = {
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
};
type PodSpec = { containers: Container[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] };

export function readManifests(): Manifest[] {
  const dir = path.join(repoRoot, "deploy/kubernetes");
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .flatMap((file) => parseAllDocuments(fs.readFileSync(path.join(dir, file), "utf8")).map((doc) => doc.toJS()));
}

export const manifest = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((item) => item.kind === kind && item.metadata.name === name);
  if (!found) throw new Error(`deploy/kubernetes/ has no ${kind} ${name}`);
  return found;
};

/** Each workload's first container as an Instance: envFrom, then env, as the kubelet applies them. */
export function kubernetesInstances(manifests: Manifest[]): Instance[] {
  const workloads = manifests.filter((item) => ["Deployment", "StatefulSet", "Job"].includes(item.kind));
  return workloads.map((workload) => {
    const pod: PodSpec = workload.spec.template.spec;
    const container = pod.containers[0]!;
    const env = new Map<string, Source>();
    for (const from of container.envFrom ?? []) {
      if (!from.configMapRef) continue;
      const data = manifest(manifests, "ConfigMap", from.configMapRef.name).data ?? {};
      for (const key of Object.keys(data)) env.set(key, { kind: "configMap", name: from.configMapRef.name, key });
    }
    for (const entry of container.env ?? []) {
      const { secretKeyRef, configMapKeyRef, fieldRef } = entry.valueFrom ?? {};
      if (fieldRef) env.set(entry.name, { kind: "field", path: fieldRef.fieldPath });
      else if (secretKeyRef) env.set(entry.name, { kind: "secret", ...secretKeyRef });
      else if (configMapKeyRef) env.set(entry.name, { kind: "configMap", ...configMapKeyRef });
      else env.set(entry.name, { kind: "literal", text: String(entry.value) });
    }
    const claims = new Map<string, string>(
      (pod.volumes ?? []).flatMap((volume) =>
        volume.persistentVolumeClaim ? [[volume.name, volume.persistentVolumeClaim.claimName] as const] : [],
      ),
    );
    const mounts = new Map<string, string>(
      (container.volumeMounts ?? []).map((mount) => [claims.get(mount.name) ?? mount.name, mount.mountPath]),
    );
    const command: string[] = container.command ?? [];
    return {
      where: `kubernetes:${workload.kind}/${workload.metadata.name}`,
      role: container.image === "agentfold:latest" ? roleOf(command) : undefined,
      image: container.image,
      command,
      env,
      mounts,
      replicas: workload.spec.replicas ?? 1,
    };
  });
}

/** The value a variable has in a pod: ConfigMap data, a Secret's value from `secrets`, or `$(VAR)` expanded. */
export function resolveKubernetes(
  instance: Instance,
  manifests: Manifest[],
  secrets: Record<string, string>,
  fields: Record<string, string> = {},
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, source] of instance.env) {
    if (source.kind === "configMap")
      values[name] = manifest(manifests, "ConfigMap", source.name).data?.[source.key] ?? "";
    else if (source.kind === "secret") values[name] = secrets[source.key] ?? `(no value for secret key ${source.key})`;
    else if (source.kind === "field") values[name] = fields[source.path] ?? "";
    else values[name] = source.text.replace(/\$\(([A-Z0-9_]+)\)/g, (_, ref: string) => values[ref] ?? "");
  }
  return values;
}
