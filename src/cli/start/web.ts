// The `web` process: builds the Next.js app when the source changed since the last build (with
// its progress shown), then runs it under supervision (src/server/web/main.ts: the app behind
// a node:http server that answers API clients' hot calls itself).
import { spawn } from "node:child_process";
import readline from "node:readline";
import { withBuildLock } from "./build-lock";
import { isBuildCurrent, sourceHash, writeBuildStamp } from "./build-stamp";
import type { Log } from "./child";
import { nodeWithTsx, packageBin, projectRoot } from "./project";
import { superviseChild, type SupervisedChild, type Supervision } from "./supervised";
import { isHttpAnswering, isHttpOk, waitFor } from "./wait";

const nextBin = () => packageBin("next", "dist/bin/next");

export async function buildWebIfNeeded(log: Log, env: NodeJS.ProcessEnv): Promise<"built" | "current"> {
  const hash = sourceHash(projectRoot);
  if (isBuildCurrent(projectRoot, hash)) return "current";
  return withBuildLock(
    projectRoot,
    () => (isBuildCurrent(projectRoot, hash) ? Promise.resolve("current" as const) : build(log, env, hash)),
    {
      onWait: (pid) => log(`web: waiting for the build another process (pid ${pid}) is running`),
    },
  );
}

async function build(log: Log, env: NodeJS.ProcessEnv, hash: string): Promise<"built"> {
  log("web: building the app (first start or the source changed; about a minute)");
  const startedAt = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(), "build"], {
      cwd: projectRoot,
      env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on("line", (line) => {
        if (line.trim()) log(`[build] ${line}`);
      });
    }
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed (exit code ${code})`))));
  });
  writeBuildStamp(projectRoot, hash);
  log(`web: build finished in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  return "built";
}

export async function startWeb(options: {
  host: string;
  port: number;
  env: NodeJS.ProcessEnv;
  log: Log;
  supervision?: Supervision;
  name?: string;
}): Promise<SupervisedChild> {
  const { host, port, env, log, supervision, name = "web" } = options;
  const healthUrl = `http://${host}:${port}/v1/health`;
  const web = superviseChild(
    {
      name,
      // The built app behind our own node:http server (src/server/web/main.ts).
      ...nodeWithTsx("src/server/web/main.ts"),
      cwd: projectRoot,
      // Without NEXTAUTH_URL, NextAuth builds its callback URLs from the Host header it is
      // reached by, so the dashboard works at 127.0.0.1, localhost or a LAN name alike.
      env: {
        ...env,
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        AGENTFOLD_WEB_HOST: host,
        AGENTFOLD_WEB_PORT: String(port),
        ...(env.NEXTAUTH_URL ? {} : { AUTH_TRUST_HOST: "1" }),
      },
    },
    log,
    {
      ...supervision,
      // Start-up waits for a healthy stack; a restart only for the web to answer, since the part
      // that is down may be another one.
      waitUntilReady: (_, { isRestart }) =>
        isRestart
          ? waitFor("the web app to answer", () => isHttpAnswering(healthUrl), { timeoutMs: 60_000 })
          : waitFor("the web app to answer /v1/health", () => isHttpOk(healthUrl), { timeoutMs: 60_000 }),
    },
  );
  await web.ready;
  return web;
}
