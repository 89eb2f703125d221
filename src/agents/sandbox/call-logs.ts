// The host side of agent code's console output (console-capture.ts): each line is handed on with
// the call it belongs to, masked like everything else that comes out of a sandbox, and bounded
// per call so one chatty call cannot flood the store; past the bound one line says how many went.
import type { SandboxLog } from "./protocol";

export type CallLogLine = {
  level: SandboxLog["level"];
  text: string;
  /** The platform's call: its method, module and host context (src/server/turns/host-calls.ts). */
  method: string;
  file?: string;
  context: unknown;
};

export type OnCallLog = (line: CallLogLine) => void;

export const callLogBounds = { lines: 500, bytes: 256 * 1024, lineChars: 8_000 };

export type CallLog = { add: (log: SandboxLog) => void; end: () => void };

export function createCallLog(
  call: { method: string; file?: string; context: unknown },
  onLog: OnCallLog,
  mask: (text: string) => string,
): CallLog {
  let lines = 0;
  let bytes = 0;
  let dropped = 0;
  const emit = (level: SandboxLog["level"], text: string) => onLog({ ...call, level, text });
  return {
    add({ level, text }) {
      const line = text.length > callLogBounds.lineChars ? `${text.slice(0, callLogBounds.lineChars)}…` : text;
      if (lines >= callLogBounds.lines || bytes + line.length > callLogBounds.bytes) return void dropped++;
      lines++;
      bytes += line.length;
      emit(level, mask(line));
    },
    end() {
      if (dropped > 0)
        emit(
          "warn",
          `${dropped} more lines from this call were dropped (at most ${callLogBounds.lines} lines or 256 KiB a call)`,
        );
    },
  };
}
