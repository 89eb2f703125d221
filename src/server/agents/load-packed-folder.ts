// `agentfold validate` loads what `deploy` would upload, not the folder on disk: the same archive
// (pack-project.ts), extracted with the upload's own checks, then loaded as an upload is.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { extractedAgentFolder, packProject } from "@/agents/bundle/pack-project";
import { loadAgentFolder, type LoadedAgent } from "@/agents/loader/load-agent";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";
import { AppError } from "@/server/errors";
import { extractUpload } from "./intake/extract-upload";

/** The folder to load in an extracted upload: its root, or the one its project marker names. */
export function agentFolderOf(source: string): { folderDir: string; projectDir?: string } {
  try {
    const { folderDir, agentFolder } = extractedAgentFolder(source);
    return agentFolder ? { folderDir, projectDir: source } : { folderDir };
  } catch (error) {
    throw new AppError("invalid_upload", (error as Error).message);
  }
}

export async function loadPackedFolder(options: {
  dir: string;
  /** Installed lockfiles, as an upload's (install-dependencies.ts). */
  cacheDir: string;
  models?: ModelRouting;
}): Promise<LoadedAgent> {
  const folderDir = path.resolve(options.dir);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-validate-"));
  try {
    const { archive } = await packProject(folderDir);
    const source = path.join(scratch, "source");
    await extractUpload({ archive, destDir: source });
    return await loadAgentFolder({
      ...agentFolderOf(source),
      folderName: path.basename(folderDir),
      outDir: path.join(scratch, "bundle"),
      dependencies: { cacheDir: options.cacheDir },
      ...(options.models ? { models: options.models } : {}),
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
