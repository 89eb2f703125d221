// `agentfold dev`: how long from the command to a ready agent (the web already built) and from a
// saved edit to the new version ready, as an author waits for them. The real CLI in a child
// process on a state root of its own; times are read off the clock here, at the lines it prints.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliBin } from "@/testing/cli-process";
import { writeFiles } from "@/testing/folders";
import { median, ms } from "./stats";

const starts = 3;
const reloads = 10;

type Dev = { child: ChildProcess; output: () => string; stop: () => Promise<void> };

function startDev(dir: string, stateRoot: string): Dev {
  const child = spawn(process.execPath, [cliBin, "dev", "--dir", dir, "--port", "0", "--state-root", stateRoot], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    child,
    output: () => output,
    stop: async () => {
      child.kill("SIGINT");
      await exited;
    },
  };
}

async function until(dev: Dev, test: (output: string) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test(dev.output())) {
    if (Date.now() > deadline) throw new Error(`dev did not get there:\n${dev.output().slice(-2000)}`);
    if (dev.child.exitCode !== null) throw new Error(`dev exited:\n${dev.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const isReady = (output: string) => /ready in [\d.]+ s; watching/.test(output);

export async function benchDev(): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-dev-"));
  try {
    const dir = writeFiles(path.join(root, "agent"), {
      "bot/instructions.md": "You answer briefly.",
      "bot/tools/echo.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "echo", effect: "read", async execute(input) { return input; } });
`,
    });
    const stateRoot = path.join(root, "state");
    // A first start builds the web app if its source changed, and creates the database: not timed.
    const first = startDev(dir, stateRoot);
    await until(first, isReady, 15 * 60_000);
    await first.stop();

    const startTimes: number[] = [];
    for (let i = 0; i < starts; i++) {
      const began = performance.now();
      const dev = startDev(dir, stateRoot);
      await until(dev, isReady, 120_000);
      startTimes.push(performance.now() - began);
      if (i < starts - 1) await dev.stop();
      else {
        const reloadTimes: number[] = [];
        for (let n = 0; n < reloads; n++) {
          const readyLines = dev.output().split(" ready in ").length;
          const saved = performance.now();
          fs.writeFileSync(path.join(dir, "bot", "instructions.md"), `You answer briefly. Edit ${n}.`);
          await until(dev, (output) => output.split(" ready in ").length > readyLines, 60_000);
          reloadTimes.push(performance.now() - saved);
        }
        await dev.stop();
        return `## agentfold dev

The CLI in a child process, on a state root that already has its database (a first start, which
may build the web app, is not counted); one agent with a tool.

| | median | runs |
|---|---|---|
| start-up: the command → "ready" (Postgres, Restate, worker, web, the folder loaded) | ${ms(median(startTimes))} | ${starts} |
| reload: an edit saved → the new version ready (includes the watcher's 150 ms settle) | ${ms(median(reloadTimes))} | ${reloads} |
`;
      }
    }
    throw new Error("unreachable");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
