import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, SecretDecryptionError } from "./secret-cipher";

const key = crypto.randomBytes(32);
const value = "sk-live-0123456789 ünïcode";
const bound = { key, agentId: "agent_a", name: "API_KEY" };

describe("secret cipher", () => {
  it("decrypts what it encrypted, and never stores the value in the clear", () => {
    const encrypted = encryptSecret({ ...bound, value });
    expect(encrypted.ciphertext.includes(Buffer.from(value))).toBe(false);
    expect(decryptSecret({ ...bound, encrypted })).toBe(value);
  });

  it("draws a fresh IV for every write of the same value", () => {
    const first = encryptSecret({ ...bound, value });
    const second = encryptSecret({ ...bound, value });
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
  });

  it("refuses altered ciphertext, tag or IV", () => {
    const encrypted = encryptSecret({ ...bound, value });
    const flipped = (buffer: Buffer) => Buffer.from(buffer.map((byte, i) => (i === 0 ? byte ^ 1 : byte)));
    expect(() =>
      decryptSecret({ ...bound, encrypted: { ...encrypted, ciphertext: flipped(encrypted.ciphertext) } }),
    ).toThrow(SecretDecryptionError);
    expect(() => decryptSecret({ ...bound, encrypted: { ...encrypted, tag: flipped(encrypted.tag) } })).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret({ ...bound, encrypted: { ...encrypted, iv: flipped(encrypted.iv) } })).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret({ ...bound, encrypted: { ...encrypted, tag: encrypted.tag.subarray(0, 8) } })).toThrow(
      SecretDecryptionError,
    );
  });

  it("refuses ciphertext moved to another agent or name, or read with another key", () => {
    const encrypted = encryptSecret({ ...bound, value });
    expect(() => decryptSecret({ ...bound, agentId: "agent_b", encrypted })).toThrow(SecretDecryptionError);
    expect(() => decryptSecret({ ...bound, name: "OTHER_KEY", encrypted })).toThrow(SecretDecryptionError);
    expect(() => decryptSecret({ ...bound, key: crypto.randomBytes(32), encrypted })).toThrow(SecretDecryptionError);
  });

  it("names the secret in its error, never the value", () => {
    const encrypted = encryptSecret({ ...bound, value });
    const error = (() => {
      try {
        decryptSecret({ ...bound, agentId: "agent_b", encrypted });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toContain("API_KEY");
    expect(error?.message).not.toContain(value);
  });
});
