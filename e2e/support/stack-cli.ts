// The running e2e stack's CLI, as a self-hoster would use it on the server: `agentfold <args>`
// against its data directory and Postgres, and deploying a folder given as files.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../../src/cli/start/project";
import { writeFiles } from "../../src/testing/folders";

export async function stackCli(...args: string[]): Promise<string> {
  const ports = JSON.parse(process.env.AGENTFOLD_E2E_PORTS!) as Record<string, string>;
  const env = {
    ...process.env,
    AGENTFOLD_DATA_DIR: process.env.AGENTFOLD_E2E_DATA_DIR,
    POSTGRES_PORT: ports.POSTGRES_PORT,
    // The bootstrap reaches this stack's database, whatever a developer's saved logins say.
    AGENTFOLD_CONFIG_DIR: path.join(process.env.AGENTFOLD_E2E_DATA_DIR!, "cli-config"),
  };
  const bin = path.join(projectRoot, "bin", "agentfold.mjs");
  return (await promisify(execFile)(process.execPath, [bin, ...args], { env })).stdout.trim();
}

/** Deploys `files` (or the folder at `dir`) as agent `slug` of `team`. */
export async function deployFolder(where: { team: string; slug: string }, source: Record<string, string> | string) {
  const dir =
    typeof source === "string"
      ? source
      : writeFiles(fs.mkdtempSync(path.join(os.tmpdir(), `agentfold-e2e-${where.slug}-`)), source);
  try {
    await stackCli("deploy", "--dir", dir, "--team", where.team, "--slug", where.slug);
  } finally {
    if (typeof source !== "string") fs.rmSync(dir, { recursive: true, force: true });
  }
}
