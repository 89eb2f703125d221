// A command's steps on stderr: at a terminal, one line rewritten in place while a step runs
// (`… uploading  12.0 KiB / 40.0 KiB`) and kept when it ends; elsewhere (CI logs, pipes), one
// plain line per step as it ends. `agentfold deploy` shows packing, upload, validation, bundling
// and activation this way.
export type StepProgress = {
  /** Begins a step; a step still running ends as done. */
  start(step: string, detail?: string): void;
  /** The running step's detail as it changes (a terminal shows it; plain output waits for the end). */
  update(detail: string): void;
  done(detail?: string): void;
  fail(detail?: string): void;
};

export function createStepProgress(options: {
  write: (text: string) => void;
  isTTY: boolean;
  now?: () => number;
}): StepProgress {
  const { write, isTTY, now = Date.now } = options;
  let current: { step: string; startedAt: number } | undefined;

  const line = (mark: string, step: string, detail?: string) => `${mark} ${step}${detail ? `  ${detail}` : ""}`;
  const draw = (text: string) => write(`\r\x1b[2K${text}`);

  function end(mark: "✓" | "✗", detail?: string): void {
    if (!current) return;
    const seconds = `${((now() - current.startedAt) / 1000).toFixed(1)} s`;
    const text = `${line(mark, current.step, detail)}  ${seconds}`;
    if (isTTY) draw(`${text}\n`);
    else write(`${text}\n`);
    current = undefined;
  }

  return {
    start(step, detail) {
      end("✓");
      current = { step, startedAt: now() };
      if (isTTY) draw(line("…", step, detail));
    },
    update(detail) {
      if (current && isTTY) draw(line("…", current.step, detail));
    },
    done: (detail) => end("✓", detail),
    fail: (detail) => end("✗", detail),
  };
}

/** 40960 → "40.0 KiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
