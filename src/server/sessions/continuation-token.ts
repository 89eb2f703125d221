// Continuation tokens: opaque `http:…`, stored only as a SHA-256, rotated on every accepted
// follow-up so a token can be used once.
import crypto from "node:crypto";

export function newContinuationToken(): { token: string; hash: string } {
  const token = `http:${crypto.randomBytes(24).toString("base64url")}`;
  return { token, hash: hashContinuationToken(token) };
}

export function hashContinuationToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
