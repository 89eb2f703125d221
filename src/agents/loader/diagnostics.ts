// What `validate` reports: every problem at once, each with its file (and line, where the source
// shows one) and a message. One root cause is one diagnostic: the same problem found again (a
// shared module's error, seen by each module importing it) is not added twice.
export type DiagnosticLevel = "error" | "warning";

export type Diagnostic = {
  level: DiagnosticLevel;
  /** Path relative to the agent folder, when the problem belongs to one file. */
  file?: string;
  /** 1-based line in `file`, when one is known. */
  line?: number;
  message: string;
};

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  error(file: string | undefined, message: string, line?: number): void {
    this.add({ level: "error", file, message, ...(line ? { line } : {}) });
  }

  warning(file: string | undefined, message: string, line?: number): void {
    this.add({ level: "warning", file, message, ...(line ? { line } : {}) });
  }

  add(diagnostic: Diagnostic): void {
    const isKnown = this.items.some(
      (item) =>
        item.level === diagnostic.level &&
        item.file === diagnostic.file &&
        item.line === diagnostic.line &&
        item.message === diagnostic.message,
    );
    if (!isKnown) this.items.push(diagnostic);
  }

  get hasErrors(): boolean {
    return this.items.some((item) => item.level === "error");
  }
}

export function formatDiagnostic({ level, file, line, message }: Diagnostic): string {
  return `${level}: ${file ? `${file}${line ? `:${line}` : ""}: ` : ""}${message}`;
}
