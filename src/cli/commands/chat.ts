// agentfold chat --url <agent url> [--message "…"]: talk to a running agent. Without --message, a
// REPL: each line is a turn whose reply streams in, tool calls and results are shown as they
// happen, a call that needs approval asks y/n, Ctrl-C stops the running turn (twice, or at the
// prompt, leaves). With --message, one turn; --json prints its trajectory instead (docs/cli.md).
import readline from "node:readline/promises";
import { type Env, parseEnv } from "@/env";
import type { SessionEvent } from "@/agents/sdk/events";
import { defineCommand } from "@/cli/command";
import { agentSlugFlag, tokenFlag } from "@/cli/flags";
import { agentTargetOf } from "@/cli/remote/agent-target";
import { type SessionClient, sessionClient } from "@/cli/session/session-client";
import { trajectoryOf } from "@/cli/session/trajectory";

export type ChatOptions = {
  url?: string;
  token?: string;
  slug?: string;
  message?: string;
  isJson: boolean;
  isApproving: boolean;
  isDryRun: boolean;
};

type Ask = (question: string) => Promise<string>;

const oneLine = (value: unknown, max = 200) => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** Writes a turn's events as a person reads them; asks about parked calls when it can. */
function renderer(write: (text: string) => void) {
  let isInText = false;
  let subagentDepth = 0;
  const endText = () => {
    if (isInText) write("\n");
    isInText = false;
  };
  return {
    onEvent(event: SessionEvent): void {
      switch (event.type) {
        case "step.started":
          subagentDepth = event.data.parentCallId ? 1 : 0;
          break;
        case "message.appended":
          if (subagentDepth) break;
          if (!isInText) write("agent> ");
          isInText = true;
          write(event.data.delta);
          break;
        case "message.completed":
          endText();
          break;
        case "actions.requested":
          endText();
          for (const call of event.data.calls) write(`  → ${call.toolName} ${oneLine(call.args ?? {})}\n`);
          break;
        case "action.result":
          write(
            `  ${event.data.isError ? "✗" : "←"} ${event.data.toolName}${event.data.stubbed ? " (dry run)" : ""}: ${oneLine(event.data.output)}\n`,
          );
          break;
        case "action.approval_resolved":
          write(
            `  ${event.data.decision === "approved" ? "approved" : "denied"}${event.data.reason ? `: ${event.data.reason}` : ""}\n`,
          );
          break;
        case "subagent.called":
          write(`  ⇢ ${event.data.subagent}: ${oneLine(event.data.prompt)}\n`);
          break;
        case "turn.completed": {
          endText();
          const usage = event.data.usage;
          if (usage) write(`  (${usage.inputTokens} tokens in, ${usage.outputTokens} out)\n`);
          break;
        }
        case "turn.failed":
          endText();
          write(`  turn ${event.data.status === "cancelled" ? "stopped" : "failed"}: ${event.data.message}\n`);
          break;
      }
    },
    endText,
  };
}

/** One turn: sends, follows, and answers approval requests (asking, approving all, or leaving
 * them parked when there is nobody to ask). */
async function turn(
  session: SessionClient,
  message: string,
  options: {
    render?: ReturnType<typeof renderer>;
    ask?: Ask;
    isApproving: boolean;
    isDryRun: boolean;
    signal?: AbortSignal;
  },
): Promise<"completed" | "failed" | "cancelled" | "waiting"> {
  const deliveryId = await session.send(message, { isDryRun: options.isDryRun });
  let isParked = false;
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  try {
    return await session.followTurn(
      deliveryId,
      async (event) => {
        options.render?.onEvent(event);
        if (event.type !== "action.approval_requested") return;
        const { callId, toolName, args } = event.data;
        let decision: "approve" | "deny" | undefined;
        if (options.isApproving) decision = "approve";
        else if (options.ask) {
          options.render?.endText();
          const answer = await options.ask(`  approve ${toolName} ${oneLine(args)}? [y/N] `);
          decision = /^y(es)?$/i.test(answer.trim()) ? "approve" : "deny";
        }
        if (decision) await session.decide(callId, decision);
        else {
          isParked = true;
          controller.abort();
        }
      },
      controller.signal,
    );
  } catch (error) {
    if (isParked) return "waiting";
    throw error;
  }
}

async function oneShot(options: ChatOptions & { message: string }, session: SessionClient): Promise<number> {
  const write = (text: string) => process.stdout.write(text);
  const render = options.isJson ? undefined : renderer(write);
  const stdinIsTTY = Boolean(process.stdin.isTTY);
  const prompt = stdinIsTTY ? readline.createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  try {
    const end = await turn(session, options.message, {
      render,
      ask: prompt && !options.isJson ? (q) => prompt.question(q) : undefined,
      isApproving: options.isApproving,
      isDryRun: options.isDryRun,
    });
    if (options.isJson) process.stdout.write(`${JSON.stringify(trajectoryOf(session.events), null, 2)}\n`);
    if (end === "waiting")
      process.stderr.write(
        `agentfold: a call waits for approval in ${session.sessionId}: decide in the playground, or pass --approve\n`,
      );
    return end === "completed" ? 0 : 1;
  } finally {
    prompt?.close();
  }
}

/** Lines typed at the terminal, queued: what is typed while a turn runs is the next message. */
function lineQueue(rl: readline.Interface) {
  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let isClosed = false;
  rl.on("line", (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else lines.push(line);
  });
  rl.on("close", () => {
    isClosed = true;
    waiting?.(undefined);
  });
  return {
    /** The next line, after showing `prompt`; undefined once the input is closed (Ctrl-D). */
    next(prompt: string): Promise<string | undefined> {
      rl.setPrompt(prompt);
      rl.prompt();
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (isClosed) return Promise.resolve(undefined);
      return new Promise((resolve) => (waiting = resolve));
    },
  };
}

async function repl(
  options: ChatOptions,
  session: SessionClient,
  target: { url: string; slug: string },
): Promise<number> {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: Boolean(process.stdin.isTTY),
  });
  const input = lineQueue(rl);
  const write = (text: string) => process.stdout.write(text);
  const render = renderer(write);
  write(`Chatting with ${target.slug} on ${target.url}. Ctrl-C stops a turn; Ctrl-D or /exit leaves.\n`);
  let running: AbortController | undefined;
  let isStopAsked = false;
  const onInterrupt = () => {
    if (!running) {
      rl.close();
      return;
    }
    if (isStopAsked) process.exit(130);
    isStopAsked = true;
    write("\n  stopping the turn…\n");
    void session.stop().catch(() => undefined);
  };
  // In a terminal Ctrl-C is a key readline reads; without one it is a signal.
  rl.on("SIGINT", onInterrupt);
  process.on("SIGINT", onInterrupt);
  try {
    for (;;) {
      const line = (await input.next("you> "))?.trim();
      if (line === undefined || line === "/exit" || line === "/quit") break;
      if (!line) continue;
      running = new AbortController();
      isStopAsked = false;
      try {
        await turn(session, line, {
          render,
          ask: async (question) => (await input.next(question)) ?? "",
          isApproving: options.isApproving,
          isDryRun: options.isDryRun,
          signal: running.signal,
        });
      } catch (error) {
        write(`  ${(error as Error).message}\n`);
      } finally {
        running = undefined;
      }
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    rl.close();
  }
  if (session.sessionId) write(`session ${session.sessionId}\n`);
  return 0;
}

export async function chatCommand(options: ChatOptions, config: Env): Promise<number> {
  const target = agentTargetOf(options, config);
  const session = sessionClient(target);
  if (options.message !== undefined) return oneShot({ ...options, message: options.message }, session);
  return repl(options, session, target);
}

export const chatCommandSpec = defineCommand({
  name: "chat",
  group: "sessions",
  summary: "Talk to a running agent: a REPL, or one turn with --message",
  details:
    "The reply streams in; tool calls and approval prompts show as they happen; Ctrl-C stops the running turn. A loopback agent URL (agentfold dev) needs no token.",
  flags: {
    url: { type: "string", value: "<agent url>", description: "The agent: http://127.0.0.1:3000/<agent>" },
    message: { type: "string", value: "<text>", description: "Send this one message, print the turn, exit" },
    json: { type: "boolean", description: "With --message: print the turn's trajectory (the shape of run) instead" },
    approve: { type: "boolean", description: "Approve every call that needs approval without asking" },
    "dry-run": { type: "boolean", description: "Start a dry-run session: write tools answer with their stand-ins" },
    token: tokenFlag,
    slug: agentSlugFlag,
  },
  examples: [
    "agentfold chat --url http://127.0.0.1:3000/support-desk",
    'agentfold chat --url https://agents.example.com/desk --token $T --message "Where is order A-1001?" --json',
  ],
  run: ({ flags }) =>
    chatCommand(
      {
        url: flags.url,
        token: flags.token,
        slug: flags.slug,
        message: flags.message,
        isJson: flags.json,
        isApproving: flags.approve,
        isDryRun: flags["dry-run"],
      },
      parseEnv(),
    ),
});
