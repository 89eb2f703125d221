import fs from "node:fs";
import type { FakeSlack } from "../../src/testing/slack/fake-slack";
import { fakeSlackKey, stackFile } from "./stack";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(): Promise<void> {
  await ((globalThis as Record<string, unknown>)[fakeSlackKey] as FakeSlack | undefined)?.close();
  if (!fs.existsSync(stackFile)) return;
  const { pid, dataDir } = JSON.parse(fs.readFileSync(stackFile, "utf8")) as { pid: number; dataDir: string };
  fs.rmSync(stackFile);
  if (isAlive(pid)) process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 60_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
