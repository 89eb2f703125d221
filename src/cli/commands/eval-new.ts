// agentfold eval new --from-session <id> --url … --token … [--slug …] [--dir <folder>] [--force]:
// the eval the instance drafts from one of its sessions (GET /<slug>/v1/sessions/:id/eval-draft),
// written under the folder's evals/ to be edited and committed.
import fs from "node:fs";
import path from "node:path";
import { type Env, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { agentSlugFlag, dirFlag, tokenFlag, urlFlag } from "@/cli/flags";
import { UsageError } from "@/cli/usage-error";
import { AppError } from "@/server/errors";
import { remoteClient } from "./eval-remote";
import { type EvalOptions, remoteTargetOf } from "./eval";

export async function evalNewCommand(
  options: Pick<EvalOptions, "dir" | "url" | "token" | "slug"> & { sessionId: string; isForced: boolean },
  config: Env,
): Promise<number> {
  const target = remoteTargetOf({ ...options, isList: false, ids: [], tags: [], isJson: false }, config);
  if (!target) throw new UsageError("eval new drafts from a session on an instance: give --url and --token");
  const draft = await remoteClient(target).draft(options.sessionId);
  // The path comes from the server: it must stay a file under the folder's evals/.
  const relative = path.posix.normalize(draft.path);
  if (!/^evals\/[^/].*\.eval\.ts$/.test(relative) || relative.split("/").includes(".."))
    throw new AppError("internal_error", `the instance proposed a path outside evals/: ${draft.path}`);
  const file = path.join(path.resolve(options.dir), ...relative.split("/"));
  if (fs.existsSync(file) && !options.isForced) {
    process.stderr.write(`agentfold: ${relative} exists; pass --force to replace it\n`);
    return 1;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, draft.source);
  // The path alone on stdout, for scripts that open it next.
  console.log(path.relative(process.cwd(), file) || file);
  return 0;
}

export const evalNewCommandSpec = defineCommand({
  name: "eval new",
  group: "sessions",
  summary: "Write an eval drafted from a session on an instance into <dir>/evals/",
  flags: {
    "from-session": { type: "string", value: "<id>", required: true, description: "The session to draft from" },
    dir: dirFlag,
    force: { type: "boolean", description: "Replace an eval file of the same name" },
    url: urlFlag,
    token: tokenFlag,
    slug: agentSlugFlag,
  },
  examples: ["agentfold eval new --from-session ses_… --url http://127.0.0.1:3000 --token $T --slug desk"],
  run: ({ flags }) =>
    evalNewCommand(
      {
        dir: flags.dir ?? ".",
        sessionId: flags["from-session"],
        isForced: flags.force,
        url: flags.url,
        token: flags.token,
        slug: flags.slug,
      },
      parseEnv(),
    ),
});
