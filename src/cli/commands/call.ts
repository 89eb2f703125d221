// agentfold call <tool> --input '<json>' [--dir <folder> | --url <agent url>]: one tool call with
// no model turn, on a throwaway local stack or on a running agent (the instance resolves as for
// chat and deploy: --url, AGENTFOLD_URL, or the saved login); printed in the shape of `run`
// (docs/cli.md, "call"). Exit 0 when the tool succeeded, 1 when it failed.
import path from "node:path";
import { z } from "zod";

type JsonValue = z.infer<ReturnType<typeof z.json>>;
import { type Env, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { agentSlugFlag, dirFlag, tokenFlag } from "@/cli/flags";
import { folderSlugOf } from "@/cli/local/local-agent";
import { say, withLocalAgent } from "@/cli/local/with-local-agent";
import { agentClient, agentTargetOf } from "@/cli/remote/agent-target";
import { readCredentials } from "@/cli/remote/instance";
import type { Trajectory } from "@/cli/session/trajectory";
import { UsageError } from "@/cli/usage-error";
import { localCaller } from "@/server/auth/local-caller";
import { callTool } from "@/server/tools/call-tool";

const callAnswerSchema = z.object({
  ok: z.literal(true),
  output: z.unknown(),
  isError: z.boolean(),
  stubbed: z.literal(true).optional(),
});
type CallAnswer = z.infer<typeof callAnswerSchema>;

export type CallOptions = { tool: string; input?: string; dir?: string; url?: string; token?: string; slug?: string };

function parseInputFlag(input: string | undefined): JsonValue {
  if (input === undefined) return {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch (error) {
    throw new UsageError(`--input must be JSON: ${(error as Error).message}`);
  }
}

/** A direct call as a trajectory with no session and no turn. */
export function callTrajectory(tool: string, input: unknown, answer: CallAnswer): Trajectory {
  const status = answer.isError ? "failed" : "completed";
  const call = {
    callId: "direct",
    tool,
    input,
    status,
    output: answer.output,
    ...(answer.stubbed ? { stubbed: true as const } : {}),
  } as const;
  return {
    sessionId: null,
    status,
    reply: null,
    toolCalls: [call],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    turns: [],
  };
}

function print(trajectory: Trajectory): number {
  process.stdout.write(`${JSON.stringify(trajectory, null, 2)}\n`);
  return trajectory.status === "completed" ? 0 : 1;
}

/** The running agent to call, when one is named: --url; else, unless --dir asks for a local stack,
 * AGENTFOLD_URL or the instance of the last login. A login names an instance, not an agent: the
 * agent is --slug, else the current folder's name, as deploy names it. */
function remoteTarget(options: CallOptions, config: Env) {
  if (options.url) return agentTargetOf(options, config);
  if (options.dir) return undefined;
  if (config.AGENTFOLD_URL) return agentTargetOf(options, config);
  if (!readCredentials(config).current) return undefined;
  const slug = options.slug ?? folderSlugOf(process.cwd());
  if (!slug)
    throw new UsageError(`the folder's name '${path.basename(process.cwd())}' makes no agent slug: pass --slug <slug>`);
  return agentTargetOf({ ...options, slug }, config);
}

export async function callCommand(options: CallOptions, config: Env): Promise<number> {
  const input = parseInputFlag(options.input);
  const target = remoteTarget(options, config);
  if (target) {
    const answer = await agentClient(target).request(
      "POST",
      `/tools/${encodeURIComponent(options.tool)}`,
      callAnswerSchema,
      { input },
    );
    return print(callTrajectory(options.tool, input, answer));
  }
  const dir = options.dir ?? ".";
  return withLocalAgent({ dir, slug: options.slug, config, teamName: "Local calls" }, async (local) => {
    say(`calling ${options.tool}`);
    const answer = await callTool({
      db: local.db,
      runtime: local.runtime,
      agent: local.agent,
      caller: localCaller(local.agent.slug),
      toolName: options.tool,
      body: { input },
    });
    return print(callTrajectory(options.tool, input, answer));
  });
}

export const callCommandSpec = defineCommand({
  name: "call",
  group: "sessions",
  summary: "Call one of the agent's tools directly (no model turn); print the call in the shape of run",
  details:
    "On a running agent with --url, AGENTFOLD_URL or the saved login (the agent: --slug, else the current folder's name); on a throwaway local stack with --dir, or when no instance is named.",
  args: [{ name: "tool", required: true, description: "The tool's name" }],
  flags: {
    input: { type: "string", value: "<json>", description: "The tool's input as JSON (default {})" },
    dir: dirFlag,
    url: { type: "string", value: "<agent url>", description: "A running agent: http://127.0.0.1:3000/<agent>" },
    token: tokenFlag,
    slug: agentSlugFlag,
  },
  examples: [
    `agentfold call lookup_order --dir examples/support-desk --input '{"orderId":"A-1001"}'`,
    `agentfold call lookup_order --url http://127.0.0.1:3000/support-desk --input '{"orderId":"A-1001"}'`,
  ],
  run: ({ flags, args }) => callCommand({ tool: args[0]!, ...flags }, parseEnv()),
});
