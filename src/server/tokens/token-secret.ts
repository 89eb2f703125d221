// Bearer token secrets: `af_` + 32 random bytes. Only the SHA-256 is stored (a high-entropy
// secret needs no slow hash); comparisons go through the hash, never the plaintext.
import crypto from "node:crypto";

export const tokenPrefix = "af_";

export function newTokenSecret(): { token: string; hash: string; prefix: string } {
  const token = tokenPrefix + crypto.randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token), prefix: token.slice(0, 10) };
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
