// What `validate` reports: every problem at once, each with its file and a message.
export type DiagnosticLevel = "error" | "warning";

export type Diagnostic = {
  level: DiagnosticLevel;
  /** Path relative to the agent folder, when the problem belongs to one file. */
  file?: string;
  message: string;
};

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  error(file: string | undefined, message: string): void {
    this.items.push({ level: "error", file, message });
  }

  warning(file: string | undefined, message: string): void {
    this.items.push({ level: "warning", file, message });
  }

  get hasErrors(): boolean {
    return this.items.some((item) => item.level === "error");
  }
}

export function formatDiagnostic({ level, file, message }: Diagnostic): string {
  return `${level}: ${file ? `${file}: ` : ""}${message}`;
}
