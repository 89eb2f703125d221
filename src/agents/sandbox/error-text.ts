// An error as the one line the platform is told (a call's error result, a log line): its message,
// else its name; anything thrown that is not an Error, as a string. This file runs ONLY in the sandbox.
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
