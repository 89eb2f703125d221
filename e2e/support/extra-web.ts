// A second `next start` on the e2e stack's database, Restate and worker, with extra settings:
// for tests of several web processes and of single-agent local mode.
import { spawn } from "node:child_process";
import path from "node:path";
import { projectRoot } from "../../src/cli/start/project";
import { getFreePort } from "../../src/cli/start/ports";
import { embeddedDatabaseUrl } from "../../src/cli/start/postgres";
import { isHttpOk, waitFor } from "../../src/cli/start/wait";

export type ExtraWeb = { url: string; stop: () => void };

export async function startExtraWeb(extraEnv: Record<string, string> = {}): Promise<ExtraWeb> {
  const dataDir = process.env.AGENTFOLD_E2E_DATA_DIR!;
  const ports = JSON.parse(process.env.AGENTFOLD_E2E_PORTS!) as Record<string, string>;
  const port = await getFreePort();
  const child = spawn(
    process.execPath,
    [
      path.join(projectRoot, "node_modules/next/dist/bin/next"),
      "start",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: "production",
        AGENTFOLD_DATA_DIR: dataDir,
        DATABASE_URL: embeddedDatabaseUrl(dataDir, Number(ports.POSTGRES_PORT)),
        RESTATE_INGRESS_URL: `http://127.0.0.1:${ports.RESTATE_INGRESS_PORT}`,
        RESTATE_ADMIN_URL: `http://127.0.0.1:${ports.RESTATE_ADMIN_PORT}`,
        WORKER_URL: `http://127.0.0.1:${ports.WORKER_PORT}`,
        ...extraEnv,
      },
      stdio: "ignore",
      detached: true,
    },
  );
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor("the extra web process", () => isHttpOk(`${url}/v1/health`), { timeoutMs: 60_000 });
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
