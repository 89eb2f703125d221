export const median = (values: number[]) => percentile(values, 50);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export const ms = (value: number) => (value < 10 ? `${value.toFixed(2)} ms` : `${Math.round(value)} ms`);
