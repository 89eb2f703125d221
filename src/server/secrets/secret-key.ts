// The key agent secrets are encrypted with: 32 bytes, from AGENTFOLD_SECRET_KEY (base64 or hex)
// or generated on first use into the data directory (mode 0600). Web, worker and CLI must share
// it: with an external database, set AGENTFOLD_SECRET_KEY, or the secrets die with the data dir.
import crypto from "node:crypto";
import path from "node:path";
import { readOrCreateSecret } from "@/server/config/secrets";

export const secretKeyBytes = 32;

/** The key a text spells (64 hex digits, or base64 / base64url of 32 bytes), else undefined. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  // Hex first: 64 hex digits are also valid base64 (of 48 bytes).
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, "base64");
  return key.length === secretKeyBytes ? key : undefined;
}

/** The key kept in `<dataDir>/secret-key`, made on first use. */
export function readOrCreateSecretKey(dataDir: string): Buffer {
  const file = path.join(dataDir, "secret-key");
  const key = parseSecretKey(readOrCreateSecret(file, () => crypto.randomBytes(secretKeyBytes).toString("base64")));
  if (!key)
    throw new Error(`${file} does not hold a 32-byte key (base64 or hex): restore it, or set AGENTFOLD_SECRET_KEY`);
  return key;
}
