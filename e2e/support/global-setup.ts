// Starts a production build of Agentfold through the supervisor, on free ports with a temporary
// data directory, exactly as `npm start` would; tests read its URL from AGENTFOLD_E2E_URL.
import fs from "node:fs";
import { freeStackPorts, makeDataDir, spawnSupervisor } from "../../src/testing/supervisor-process";
import { stackFile } from "./stack";

export default async function globalSetup(): Promise<void> {
  const dataDir = makeDataDir();
  const supervisor = spawnSupervisor({ ...(await freeStackPorts()), AGENTFOLD_DATA_DIR: dataDir });
  try {
    const [, url] = await supervisor.waitForOutput(/Agentfold is ready: open (http:\/\/\S+)/, 300_000);
    process.env.AGENTFOLD_E2E_URL = url;
    fs.writeFileSync(stackFile, JSON.stringify({ pid: supervisor.child.pid, dataDir, url }));
  } catch (error) {
    await supervisor.stop("SIGTERM");
    throw error;
  }
  // The supervisor outlives this function (the runner process keeps reading its output);
  // global teardown stops it by pid.
}
