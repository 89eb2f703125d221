// Counts an upload while it streams and throws the moment a limit is crossed, so the caller
// stops inflating there: nothing trusts the sizes an archive declares about itself.
import { AppError } from "@/server/errors";
import { formatBytes, type UploadLimits } from "./upload-limits";

// Room for tar headers, pax records and block padding on top of the file contents themselves.
const tarOverheadPerEntry = 4 * 1024;

export type UploadBudget = {
  countEntry: () => void;
  /** Inflated bytes of file contents: the measure of maxTotalBytes and maxRatio. */
  countFileBytes: (bytes: number) => void;
  /** Every byte gunzip produces for a tar, headers included: bounds what the tar parser buffers. */
  countTarBytes: (bytes: number) => void;
};

export function createUploadBudget({
  limits,
  archiveBytes,
}: {
  limits: UploadLimits;
  archiveBytes: number;
}): UploadBudget {
  let entries = 0;
  let fileBytes = 0;
  let tarBytes = 0;
  const maxTarBytes = limits.maxTotalBytes + (limits.maxFiles + 16) * tarOverheadPerEntry;
  const reject = (reason: string) => new AppError("invalid_upload", reason);
  const tooLarge = () => reject(`archive expands to more than ${formatBytes(limits.maxTotalBytes)}`);

  return {
    countEntry() {
      entries += 1;
      if (entries > limits.maxFiles) throw reject(`archive has more than ${limits.maxFiles} files`);
    },
    countFileBytes(bytes) {
      fileBytes += bytes;
      if (fileBytes > limits.maxTotalBytes) throw tooLarge();
      if (fileBytes > limits.maxRatio * archiveBytes) {
        throw reject(`compression ratio over ${limits.maxRatio}:1 (possible archive bomb)`);
      }
    },
    countTarBytes(bytes) {
      tarBytes += bytes;
      if (tarBytes > maxTarBytes) throw tooLarge();
    },
  };
}
