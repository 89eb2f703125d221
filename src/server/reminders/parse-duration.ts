// "in" for reminders: milliseconds as a number, or "500ms", "90s", "5m", "2h", "1d".
const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i.exec(value);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * units[match[2]!.toLowerCase()]!);
}
