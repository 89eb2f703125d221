// A throwaway Postgres (and optionally Restate) on free ports in a temporary directory, for the
// test harness and for tooling that needs a database for a moment (creating a migration).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Log } from "./child";
import { getFreePort } from "./ports";
import { startEmbeddedPostgres } from "./postgres";
import { startEmbeddedRestate } from "./restate";

export type ThrowawayStack = {
  dir: string;
  databaseUrl: string;
  restate?: { ingressUrl: string; adminUrl: string; identityKey: string };
  stop: () => Promise<void>;
};

export async function startThrowawayStack(options: { withRestate: boolean; log?: Log }): Promise<ThrowawayStack> {
  const log = options.log ?? (() => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-"));
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const postgres = await startEmbeddedPostgres({ dataDir: dir, port: await getFreePort(), log });
    stoppers.push(postgres.stop);
    let restate: ThrowawayStack["restate"];
    if (options.withRestate) {
      const ports = { ingress: await getFreePort(), admin: await getFreePort(), node: await getFreePort() };
      const started = await startEmbeddedRestate({ dataDir: dir, ports, log });
      stoppers.push(started.stop);
      restate = { ingressUrl: started.ingressUrl, adminUrl: started.adminUrl, identityKey: started.identityKey };
    }
    return { dir, databaseUrl: postgres.url, restate, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
