// Runs one piece of work against a folder deployed on a throwaway local stack, then stops the
// stack, also on Ctrl-C (exit 130). Progress goes to stderr; stdout is the command's answer.
import type { Env } from "@/env";
import { stopAllChildren } from "@/cli/start/child";
import { type LocalAgent, startLocalAgent } from "./local-agent";
import { keepStdoutForTheAnswer } from "./quiet-stdout";

export const say = (line: string) => process.stderr.write(`agentfold: ${line}\n`);

export async function withLocalAgent(
  options: { dir: string; slug?: string; config: Env; teamName: string },
  work: (local: LocalAgent, signal: AbortSignal) => Promise<number>,
): Promise<number> {
  keepStdoutForTheAnswer(options.config);
  let close: (() => Promise<void>) | undefined;
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) return;
    controller.abort();
    say("interrupted; stopping the local stack…");
    void (close?.() ?? Promise.resolve()).then(stopAllChildren).finally(() => process.exit(130));
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, onSignal);
  let local: LocalAgent | undefined;
  try {
    const started = await startLocalAgent({ ...options, say, onClose: (stop) => (close = stop) });
    if ("diagnostics" in started) {
      for (const line of started.diagnostics) say(line);
      say("the folder is not a valid agent; nothing ran");
      return 1;
    }
    local = started;
    for (const line of local.warnings) say(line);
    return await work(local, controller.signal);
  } catch (error) {
    // The signal handler ends the process once the stack is down.
    if (controller.signal.aborted) return -1;
    throw error;
  } finally {
    if (!controller.signal.aborted) {
      await local?.close();
      for (const signal of ["SIGINT", "SIGTERM"]) process.off(signal, onSignal);
    }
  }
}
