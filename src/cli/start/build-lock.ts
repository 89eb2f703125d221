// One `next build` at a time per checkout: two stacks starting at once (tests on two cores, a
// `dev` beside a `start`) would otherwise both build into the same .next folder and break it.
// The lock is a directory (mkdir is atomic) holding the builder's pid; a dead builder's lock is
// taken over.
import fs from "node:fs";
import path from "node:path";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function withBuildLock<T>(
  root: string,
  work: () => Promise<T>,
  { onWait, timeoutMs = 15 * 60_000 }: { onWait?: (pid: number) => void; timeoutMs?: number } = {},
): Promise<T> {
  const lock = path.join(root, ".next-build.lock");
  const deadline = Date.now() + timeoutMs;
  let isWaiting = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = Number(fs.readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
    // No pid yet: its owner is between mkdir and write; a dead owner's lock is stale.
    if (pid && !isAlive(pid)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another process (pid ${pid}) has been building the web app too long`);
    if (!isWaiting && pid) onWait?.(pid);
    isWaiting = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
