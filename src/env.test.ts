import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authSecret, EnvError, parseEnv } from "./env";

function errorOf(source: Record<string, string>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error("parseEnv accepted the input");
}

describe("parseEnv", () => {
  it("runs on embedded defaults when nothing is set", () => {
    const config = parseEnv({});
    expect(config.PORT).toBe(3000);
    expect(config.isExternalDatabase).toBe(false);
    expect(config.isExternalRestate).toBe(false);
    expect(config.restateAdminUrl).toBe("http://127.0.0.1:9070");
    expect(config.workerUrl).toBe("http://127.0.0.1:9080");
    expect(config.dataDir).toBe(path.resolve(".data"));
    expect(config.AGENTFOLD_DEFAULT_MODEL).toBe("local:scripted");
  });

  it("names the variable of a bad value", () => {
    const error = errorOf({ PORT: "eighty" });
    expect(error.issues.map((issue) => issue.variable)).toEqual(["PORT"]);
    expect(error.message).toMatch(/^Invalid configuration:\n {2}PORT: /);
  });

  it("restarts a dying part 5 times a minute unless told otherwise", () => {
    expect(parseEnv({})).toMatchObject({ AGENTFOLD_RESTART_LIMIT: 5, AGENTFOLD_RESTART_WINDOW_SECONDS: 60 });
    expect(parseEnv({ AGENTFOLD_RESTART_LIMIT: "0" }).AGENTFOLD_RESTART_LIMIT).toBe(0);
    expect(errorOf({ AGENTFOLD_RESTART_LIMIT: "-1" }).issues[0]?.variable).toBe("AGENTFOLD_RESTART_LIMIT");
    expect(errorOf({ AGENTFOLD_RESTART_WINDOW_SECONDS: "0" }).issues[0]?.variable).toBe(
      "AGENTFOLD_RESTART_WINDOW_SECONDS",
    );
  });

  it("rejects out-of-range ports and non-Postgres database URLs", () => {
    expect(errorOf({ WORKER_PORT: "70000" }).issues[0]?.variable).toBe("WORKER_PORT");
    expect(errorOf({ DATABASE_URL: "mysql://localhost/db" }).issues[0]?.variable).toBe("DATABASE_URL");
  });

  it("refuses a count of cluster workers outside cluster mode, where it would do nothing", () => {
    expect(() => parseEnv({ AGENTFOLD_CLUSTER_WORKERS: "3" })).toThrow(
      /AGENTFOLD_CLUSTER_WORKERS.*AGENTFOLD_CLUSTER=1/,
    );
    expect(parseEnv({ AGENTFOLD_CLUSTER: "1", AGENTFOLD_CLUSTER_WORKERS: "3" }).AGENTFOLD_CLUSTER_WORKERS).toBe(3);
    expect(parseEnv({}).AGENTFOLD_CLUSTER_WORKERS).toBe(2);
  });

  it("refuses local access without a token on an instance with a public address", () => {
    const publicUrl = "https://agents.example.com";
    expect(() => parseEnv({ AGENTFOLD_LOCAL_DEV: "1", AGENTFOLD_PUBLIC_URL: publicUrl })).toThrow(
      /AGENTFOLD_LOCAL_DEV/,
    );
    expect(() => parseEnv({ AGENTFOLD_SINGLE_AGENT: "desk", AGENTFOLD_PUBLIC_URL: publicUrl })).toThrow(
      /AGENTFOLD_SINGLE_AGENT/,
    );
    expect(parseEnv({ AGENTFOLD_SINGLE_AGENT: "desk" }).AGENTFOLD_SINGLE_AGENT).toBe("desk");
  });

  it("requires both Restate URLs or neither, naming the missing one", () => {
    const error = errorOf({ RESTATE_INGRESS_URL: "http://restate:8080" });
    expect(error.issues).toEqual([
      { variable: "RESTATE_ADMIN_URL", message: "set both RESTATE_INGRESS_URL and RESTATE_ADMIN_URL, or neither" },
    ]);
  });

  it("uses external services when configured", () => {
    const config = parseEnv({
      DATABASE_URL: "postgresql://u:p@db:5432/agentfold",
      RESTATE_INGRESS_URL: "http://restate:8080/",
      RESTATE_ADMIN_URL: "http://restate:9070",
    });
    expect(config.isExternalDatabase).toBe(true);
    expect(config.isExternalRestate).toBe(true);
    expect(config.restateIngressUrl).toBe("http://restate:8080");
  });

  it("treats empty strings as unset and wildcard hosts as loopback for URLs", () => {
    const config = parseEnv({ DATABASE_URL: "", AGENTFOLD_HOST: "0.0.0.0", PORT: "4000" });
    expect(config.isExternalDatabase).toBe(false);
    expect(config.webUrl).toBe("http://127.0.0.1:4000");
  });

  it("knows its public address: AGENTFOLD_PUBLIC_URL, else NEXTAUTH_URL, else the web's own", () => {
    expect(parseEnv({ PORT: "4000" }).publicUrl).toBe("http://127.0.0.1:4000");
    expect(parseEnv({ NEXTAUTH_URL: "https://dash.example.com/" }).publicUrl).toBe("https://dash.example.com");
    expect(
      parseEnv({ NEXTAUTH_URL: "http://127.0.0.1:3000", AGENTFOLD_PUBLIC_URL: "https://agents.example.com" }).publicUrl,
    ).toBe("https://agents.example.com");
    expect(errorOf({ AGENTFOLD_PUBLIC_URL: "agents.example.com" }).issues[0]?.variable).toBe("AGENTFOLD_PUBLIC_URL");
  });

  it("takes provider base URLs and names a malformed one", () => {
    const config = parseEnv({
      OPENAI_BASE_URL: "https://gateway.internal/openai/v1",
      ANTHROPIC_BASE_URL: "https://gateway.internal/anthropic/v1",
    });
    expect(config.OPENAI_BASE_URL).toBe("https://gateway.internal/openai/v1");
    expect(config.ANTHROPIC_BASE_URL).toBe("https://gateway.internal/anthropic/v1");
    expect(errorOf({ ANTHROPIC_BASE_URL: "api.anthropic.com/v1" }).issues[0]?.variable).toBe("ANTHROPIC_BASE_URL");
  });

  it("checks the model id shape", () => {
    expect(errorOf({ AGENTFOLD_DEFAULT_MODEL: "gpt" }).issues[0]?.variable).toBe("AGENTFOLD_DEFAULT_MODEL");
    expect(parseEnv({ AGENTFOLD_DEFAULT_MODEL: "openai:gpt-5" }).AGENTFOLD_DEFAULT_MODEL).toBe("openai:gpt-5");
  });
});

describe("authSecret", () => {
  it("generates a secret once and keeps it in the data directory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-env-"));
    try {
      const config = parseEnv({ AGENTFOLD_DATA_DIR: dir });
      const first = authSecret(config);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(authSecret(config)).toBe(first);
      expect(fs.statSync(path.join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prefers AUTH_SECRET when set", () => {
    const secret = "x".repeat(40);
    expect(authSecret(parseEnv({ AUTH_SECRET: secret, AGENTFOLD_DATA_DIR: "/nonexistent" }))).toBe(secret);
  });
});
