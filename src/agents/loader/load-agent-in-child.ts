// The web app's way to load an uploaded folder: the same loadAgentFolder, in a child Node process
// (load-agent-main.ts). Its stderr is kept for the error when it fails.
import { execFile } from "node:child_process";
import path from "node:path";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";
import type { LoadedAgent } from "./load-agent";

// Inside the Next.js bundle modules have no dirname; `next start` runs in the project root.
const root = import.meta.dirname
  ? path.resolve(import.meta.dirname, "../../..")
  : /*turbopackIgnore: true*/ process.cwd();

export function loadAgentInChild(options: {
  folderDir: string;
  folderName?: string;
  projectDir?: string;
  outDir: string;
  dependencies?: { cacheDir: string };
  models?: ModelRouting;
}): Promise<LoadedAgent> {
  const entry = path.join(/*turbopackIgnore: true*/ root, "src", "agents", "loader", "load-agent-main.ts");
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", entry, JSON.stringify(options)],
      // Installing an upload's npm dependencies may take minutes (install-dependencies.ts).
      { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 8 * 60_000 },
      (error, stdout, stderr) => {
        if (error)
          return reject(
            new Error(`loading the agent failed: ${stderr.trim().split("\n").slice(-3).join(" ") || error.message}`),
          );
        try {
          resolve(JSON.parse(stdout) as LoadedAgent);
        } catch {
          reject(new Error("loading the agent printed no result"));
        }
      },
    );
  });
}
