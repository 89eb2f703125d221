// AES-256-GCM for agent secrets. Each write draws a fresh 96-bit IV; the agent id and the name are
// bound as additional authenticated data, so ciphertext moved to another agent or name, or altered
// at all, fails to decrypt instead of yielding a value.
import crypto from "node:crypto";

export type EncryptedSecret = { iv: Buffer; tag: Buffer; ciphertext: Buffer };

type Binding = { key: Buffer; agentId: string; name: string };

const algorithm = "aes-256-gcm";

// NUL cannot occur in an agent id or a secret name: the parts cannot be shifted between fields.
const additionalData = (agentId: string, name: string) => Buffer.from(`agentfold-secret\0${agentId}\0${name}`, "utf8");

export class SecretDecryptionError extends Error {
  constructor(name: string) {
    // Names the secret, never its value: the message may reach logs.
    super(
      `secret ${name} cannot be decrypted: it was set with another key (AGENTFOLD_SECRET_KEY or the data directory's secret-key), or its row was altered; set it again`,
    );
    this.name = "SecretDecryptionError";
  }
}

export function encryptSecret({ key, agentId, name, value }: Binding & { value: string }): EncryptedSecret {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv(algorithm, key, iv, { authTagLength: 16 });
  cipher.setAAD(additionalData(agentId, name));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

export function decryptSecret({ key, agentId, name, encrypted }: Binding & { encrypted: EncryptedSecret }): string {
  try {
    // A full-length tag only: a truncated one would be accepted, and weaker.
    const decipher = crypto.createDecipheriv(algorithm, key, encrypted.iv, { authTagLength: 16 });
    decipher.setAAD(additionalData(agentId, name));
    decipher.setAuthTag(encrypted.tag);
    return Buffer.concat([decipher.update(encrypted.ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptionError(name);
  }
}
