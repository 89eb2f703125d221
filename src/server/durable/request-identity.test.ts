import "./polyfill";
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as restate from "@restatedev/restate-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/env";
import { base58, identityPublicKey, readOrCreateIdentityKey, workerIdentityKeys } from "./request-identity";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-identity-"));
  dirs.push(dir);
  return dir;
}

/** A JWT as restate-server signs one (EdDSA; aud = the request path; 1 minute). */
function signedJwt(privateKey: crypto.KeyObject, aud: string, kid: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ typ: "JWT", alg: "EdDSA", kid })}.${part({ aud, iat: now, nbf: now - 60, exp: now + 60 })}`;
  return `${unsigned}.${crypto.sign(null, Buffer.from(unsigned), privateKey).toString("base64url")}`;
}

/** GET /discover on an endpoint of the SDK that trusts `keys`: its status. */
async function discoverStatus(keys: string[], headers: Record<string, string>): Promise<number> {
  const probe = restate.service({ name: "probe", handlers: { ping: async () => "pong" } });
  const server = http2.createServer(restate.createEndpointHandler({ services: [probe], identityKeys: keys }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    return await new Promise<number>((resolve, reject) => {
      const request = session.request({
        ":path": "/discover",
        ":method": "GET",
        accept: "application/vnd.restate.endpointmanifest.v3+json",
        ...headers,
      });
      request.on("response", (head) => (request.resume(), resolve(Number(head[":status"]))));
      request.on("error", reject);
      request.end();
    });
  } finally {
    session.destroy();
    server.close();
  }
}

describe("the Restate identity key", () => {
  it("is generated once into the data directory, readable by its owner only", () => {
    const dir = tempDir();
    const first = readOrCreateIdentityKey(dir);
    expect(first.privateKeyFile).toBe(path.join(dir, "restate-identity.pem"));
    expect(fs.statSync(first.privateKeyFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(first.privateKeyFile, "utf8")).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(first.publicKey).toMatch(/^publickeyv1_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(readOrCreateIdentityKey(dir)).toEqual(first);
    expect(readOrCreateIdentityKey(tempDir()).publicKey).not.toBe(first.publicKey);
  });

  it("encodes base58 as the bs58 crate does", () => {
    expect(base58(Buffer.from("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U");
    expect(base58(Uint8Array.from([0, 0, 0x28, 0x7f, 0xb4, 0xcd]))).toBe("11233QC4");
    expect(base58(new Uint8Array(32))).toBe("1".repeat(32));
  });

  it("derives the key the SDK verifies its signatures with", async () => {
    const { privateKey } = crypto.generateKeyPairSync("ed25519");
    const publicKey = identityPublicKey(privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    const signed = (key: crypto.KeyObject, aud = "/discover") => ({
      "x-restate-signature-scheme": "v1",
      "x-restate-jwt-v1": signedJwt(key, aud, publicKey),
    });
    expect(await discoverStatus([publicKey], signed(privateKey))).toBe(200);
    // Another key, another path, or no signature: refused.
    expect(await discoverStatus([publicKey], signed(crypto.generateKeyPairSync("ed25519").privateKey))).toBe(401);
    expect(await discoverStatus([publicKey], signed(privateKey, "/invoke/probe/ping"))).toBe(401);
    expect(await discoverStatus([publicKey], { "x-restate-signature-scheme": "unsigned" })).toBe(401);
    expect(await discoverStatus([publicKey], {})).toBe(401);
  });
});

describe("the worker's identity keys", () => {
  const external = { RESTATE_INGRESS_URL: "http://restate:8080", RESTATE_ADMIN_URL: "http://restate:9070" };
  const key = "publickeyv1_ChjENKeMvCtRnqG2mrBK1HmPKufgFUc98K8B3ononQvp";

  it("are the data directory's for the embedded Restate", () => {
    const dir = tempDir();
    expect(workerIdentityKeys(parseEnv({ AGENTFOLD_DATA_DIR: dir }))).toEqual([readOrCreateIdentityKey(dir).publicKey]);
  });

  it("are RESTATE_IDENTITY_KEYS for an external Restate", () => {
    const other = "publickeyv1_AfQwmwfgEZhrWpvv8N52SHpRtZqGGaFr4AZN6qtYWSiY";
    expect(workerIdentityKeys(parseEnv({ ...external, RESTATE_IDENTITY_KEYS: `${key}, ${other}` }))).toEqual([
      key,
      other,
    ]);
    expect(
      workerIdentityKeys(parseEnv({ ...external, RESTATE_IDENTITY_KEYS: key, AGENTFOLD_UNSIGNED_RESTATE: "1" })),
    ).toEqual([key]);
  });

  it("refuse an external Restate without keys, naming the variable, unless opted out", () => {
    const error = (() => {
      try {
        workerIdentityKeys(parseEnv(external));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).issues.map((issue) => issue.variable)).toEqual(["RESTATE_IDENTITY_KEYS"]);
    expect((error as EnvError).message).toContain("AGENTFOLD_UNSIGNED_RESTATE=1");
    expect(workerIdentityKeys(parseEnv({ ...external, AGENTFOLD_UNSIGNED_RESTATE: "1" }))).toBeNull();
  });

  it("name a malformed key's variable", () => {
    expect(() => parseEnv({ ...external, RESTATE_IDENTITY_KEYS: `${key},pk_nope` })).toThrow(
      /RESTATE_IDENTITY_KEYS: must be publickeyv1_ keys/,
    );
    expect(() => parseEnv({ AGENTFOLD_UNSIGNED_RESTATE: "yes" })).toThrow(/AGENTFOLD_UNSIGNED_RESTATE/);
  });
});
