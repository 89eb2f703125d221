// Restate request identity: Restate signs every request it sends a deployment with an Ed25519 key
// (a JWT in `x-restate-jwt-v1`), and the worker's endpoint serves only requests one of its
// `publickeyv1_…` keys verifies. The embedded Restate's key is generated into the data directory.
import crypto from "node:crypto";
import path from "node:path";
import { EnvError, type Env } from "@/env";
import { readOrCreateSecret } from "@/server/config/secrets";

export type IdentityKey = {
  /** PKCS#8 PEM of the Ed25519 private key, for restate-server's request-identity-private-key-pem-file. */
  privateKeyFile: string;
  /** The public key as the SDK's identityKeys take it. */
  publicKey: string;
};

const publicKeyPrefix = "publickeyv1_";
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** The data directory's signing key, generated (mode 0600) on first use. */
export function readOrCreateIdentityKey(dataDir: string): IdentityKey {
  const privateKeyFile = path.join(dataDir, "restate-identity.pem");
  const pem = readOrCreateSecret(privateKeyFile, () =>
    crypto.generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim(),
  );
  return { privateKeyFile, publicKey: identityPublicKey(pem) };
}

/** `publickeyv1_` + base58 of the raw 32-byte public key: the form sdk-shared-core parses. */
export function identityPublicKey(privateKeyPem: string): string {
  const jwk = crypto.createPublicKey(privateKeyPem).export({ format: "jwk" });
  if (jwk.crv !== "Ed25519" || !jwk.x) throw new Error("the Restate identity key is not an Ed25519 key");
  return publicKeyPrefix + base58(Buffer.from(jwk.x, "base64url"));
}

export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let text = "";
  for (; value > 0n; value /= 58n) text = base58Alphabet[Number(value % 58n)] + text;
  // Each leading zero byte is a leading "1", as in Bitcoin's base58 (the bs58 crate).
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) text = "1" + text;
  return text;
}

/**
 * The keys the worker verifies Restate's requests with: the data directory's for the embedded
 * Restate, RESTATE_IDENTITY_KEYS for an external one. `null` only for the explicit opt-out
 * (AGENTFOLD_UNSIGNED_RESTATE=1); without keys or opt-out an external Restate is refused.
 */
export function workerIdentityKeys(config: Env): string[] | null {
  if (!config.isExternalRestate) return [readOrCreateIdentityKey(config.dataDir).publicKey];
  if (config.RESTATE_IDENTITY_KEYS.length > 0) return config.RESTATE_IDENTITY_KEYS;
  if (config.AGENTFOLD_UNSIGNED_RESTATE) return null;
  throw new EnvError([
    {
      variable: "RESTATE_IDENTITY_KEYS",
      message:
        "an external Restate needs the public key(s) it signs requests with (publickeyv1_…, comma-separated), " +
        "so the worker can refuse requests Restate did not sign; set AGENTFOLD_UNSIGNED_RESTATE=1 to accept unsigned ones",
    },
  ]);
}

/** Said at every start that accepts unsigned requests. */
export const unsignedWarning =
  "WARNING: AGENTFOLD_UNSIGNED_RESTATE=1: the worker accepts requests Restate did not sign; " +
  "any process that can reach its port can call its handlers with any input";
