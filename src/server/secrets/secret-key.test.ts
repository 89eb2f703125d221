import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, secretKey } from "@/env";
import { parseSecretKey, readOrCreateSecretKey } from "./secret-key";

const raw = crypto.randomBytes(32);

describe("the secret key", () => {
  it("reads 32 bytes as base64, base64url or hex, and nothing else", () => {
    expect(parseSecretKey(raw.toString("base64"))?.equals(raw)).toBe(true);
    expect(parseSecretKey(raw.toString("base64url"))?.equals(raw)).toBe(true);
    expect(parseSecretKey(raw.toString("hex"))?.equals(raw)).toBe(true);
    expect(parseSecretKey(crypto.randomBytes(16).toString("base64"))).toBeUndefined();
    expect(parseSecretKey("not a key at all!")).toBeUndefined();
  });

  it("stops start-up on a bad AGENTFOLD_SECRET_KEY, naming it", () => {
    let error: unknown;
    try {
      parseEnv({ AGENTFOLD_SECRET_KEY: "too-short" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).issues.map((issue) => issue.variable)).toEqual(["AGENTFOLD_SECRET_KEY"]);
    expect((error as EnvError).message).not.toContain("too-short");
  });

  it("is AGENTFOLD_SECRET_KEY when set, else generated once into the data directory (0600)", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-key-"));
    try {
      expect(
        secretKey(parseEnv({ AGENTFOLD_SECRET_KEY: raw.toString("hex"), AGENTFOLD_DATA_DIR: dataDir })).equals(raw),
      ).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "secret-key"))).toBe(false);
      const generated = secretKey(parseEnv({ AGENTFOLD_DATA_DIR: dataDir }));
      expect(generated).toHaveLength(32);
      expect(fs.statSync(path.join(dataDir, "secret-key")).mode & 0o777).toBe(0o600);
      expect(readOrCreateSecretKey(dataDir).equals(generated)).toBe(true);
      fs.writeFileSync(path.join(dataDir, "secret-key"), "garbage\n");
      expect(() => readOrCreateSecretKey(dataDir)).toThrow(/AGENTFOLD_SECRET_KEY/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
