// What one uploaded agent archive may be and expand to. Enforced while the archive streams (see
// create-upload-budget.ts), so a bomb is stopped at the limit rather than after inflating it.
export type UploadLimits = {
  /** Entries of every kind (files, folders, ignored metadata): bounds the work per upload. */
  maxFiles: number;
  /** Inflated bytes of file contents, counted as they are produced, never as declared. */
  maxTotalBytes: number;
  /** Inflated bytes per byte of archive. */
  maxRatio: number;
  /** Size of the uploaded archive itself. */
  maxArchiveBytes: number;
};

const mebibyte = 1024 * 1024;

export const defaultUploadLimits: UploadLimits = {
  maxFiles: 5_000,
  maxTotalBytes: 50 * mebibyte,
  maxRatio: 100,
  maxArchiveBytes: 50 * mebibyte,
};

export function resolveUploadLimits(overrides: Partial<UploadLimits> = {}): UploadLimits {
  const limits = { ...defaultUploadLimits };
  for (const key of Object.keys(limits) as (keyof UploadLimits)[]) {
    const value = overrides[key];
    // An explicit `undefined` keeps the default: a missing setting must never mean "no limit".
    if (value === undefined) continue;
    // NaN or a negative limit would make every comparison pass, which disables the check.
    if (!(value > 0)) throw new Error(`upload limit ${key} must be positive, got ${value}`);
    limits[key] = value;
  }
  return limits;
}

export function formatBytes(bytes: number): string {
  if (bytes % mebibyte === 0) return `${bytes / mebibyte} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
