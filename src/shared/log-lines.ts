// The vocabulary of an agent's log lines (docs/logs.md), shared by the server and the dashboard's
// Logs panel.
export const logLevels = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof logLevels)[number];
export const logSources = ["tool", "hook", "schedule", "channel", "eval", "platform"] as const;
export type LogSource = (typeof logSources)[number];
