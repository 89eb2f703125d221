// Where sandbox output goes (docs/logs.md): a line printed during a call of an agent's code is
// stored as that agent's log line, with the call's session, turn, module and source; output
// outside any call, or of a call for no agent (a dashboard upload's describe), goes to the
// process's own log.
import type { CallLogLine } from "@/agents/sandbox/call-logs";
import type { SandboxMethod } from "@/agents/sandbox/protocol";
import type { HostContext } from "@/server/turns/host-context";
import type { AgentLogWriter, LogSource } from "./agent-logs";
import type { Logger } from "./logger";

const sourceOf: Record<SandboxMethod, LogSource> = {
  describe: "platform",
  runTool: "tool",
  needsApproval: "tool",
  tagArtifact: "tool",
  runResult: "tool",
  runHook: "hook",
  runSchedule: "schedule",
  runRoute: "channel",
  runChannelEvent: "channel",
  runPackHandler: "channel",
  runEval: "eval",
};

export function sandboxLogSink(writer: AgentLogWriter, log: Logger) {
  return {
    onCallLog(line: CallLogLine): void {
      const context = line.context as HostContext | undefined;
      if (!context?.agentId) return void log[line.level]({ sandbox: line.method, file: line.file }, line.text);
      writer.write({
        agentId: context.agentId,
        level: line.level,
        source: sourceOf[line.method as SandboxMethod] ?? "platform",
        ...(line.file ? { name: line.file } : context.channelId ? { name: `channels/${context.channelId}` } : {}),
        ...(context.sessionId ? { sessionId: context.sessionId } : {}),
        ...(context.turnId ? { turnId: context.turnId } : {}),
        message: line.text,
      });
    },
    onLog({ stream, text }: { stream: "stdout" | "stderr"; text: string }): void {
      log[stream === "stderr" ? "warn" : "info"]({ sandbox: stream }, text);
    },
  };
}
