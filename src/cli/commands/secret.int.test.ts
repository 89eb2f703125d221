// `agentfold secret …` and the secrets in `info` / `validate`, as a user runs them: a real
// process against the test database, values piped on stdin.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { createSecretReader } from "@/server/secrets/create-secret-reader";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { createTestAgent, testManifest } from "@/testing/fixtures";
import { writeFiles } from "@/testing/folders";
import { cliBin as bin, runCli } from "@/testing/cli-process";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-secret-cli-"));
const dataDir = path.join(scratch, "data");
const cliEnv = { ...process.env, DATABASE_URL: databaseUrl, AGENTFOLD_DATA_DIR: dataDir };
let agent: Awaited<ReturnType<typeof createTestAgent>>;

beforeAll(async () => {
  agent = await createTestAgent(db);
  await db.agentVersion.update({
    where: { id: agent.version.id },
    data: { manifest: testManifest({ secretNames: ["API_KEY", "OTHER_TOKEN"] }) },
  });
});
afterAll(async () => {
  await db.$disconnect();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const agentfold = (args: string[], stdin = "") => runCli(args, { env: cliEnv, cwd: scratch, stdin });

async function valuesOfVersion(): Promise<Record<string, string>> {
  const reader = await createSecretReader({ db, databaseUrl, key: readOrCreateSecretKey(dataDir), maxAgeMs: 0 });
  try {
    return await reader.forVersion(agent.version.id);
  } finally {
    await reader.close();
  }
}

describe("agentfold secret", () => {
  it("sets a value piped from printf, as the docs show", { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      "sh",
      ["-c", `printf 'v1-from-printf' | "${process.execPath}" "${bin}" secret set ${agent.agent.slug} API_KEY`],
      { env: cliEnv, cwd: scratch },
    );
    expect(stdout.trim()).toBe(`API_KEY set on ${agent.agent.slug}`);
    expect(await valuesOfVersion()).toEqual({ API_KEY: "v1-from-printf" });
  });

  it("rotates, lists and removes, and never prints a value", { timeout: 120_000 }, async () => {
    const slug = agent.agent.slug;
    // echo's newline is not part of the value.
    const rotated = await agentfold(
      ["secret", "set", slug, "API_KEY", "--team", agent.team.slug],
      "v2-rotated-value\n",
    );
    expect(rotated).toMatchObject({ code: 0, stdout: `API_KEY rotated on ${slug}\n` });
    expect(await valuesOfVersion()).toEqual({ API_KEY: "v2-rotated-value" });
    const listed = await agentfold(["secret", "list", slug]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/API_KEY {2}set \S+ by the CLI/);
    expect(listed.stdout).toContain("missing (expected by the active version): OTHER_TOKEN");
    const json = JSON.parse((await agentfold(["secret", "list", slug, "--json"])).stdout);
    expect(json).toMatchObject({ secrets: [{ name: "API_KEY", updatedBy: "the CLI" }], missing: ["OTHER_TOKEN"] });
    for (const output of [rotated, listed]) expect(output.stdout + output.stderr).not.toContain("v2-rotated-value");
    expect(await agentfold(["secret", "rm", slug, "API_KEY"])).toMatchObject({
      code: 0,
      stdout: `API_KEY removed from ${slug}\n`,
    });
    const again = await agentfold(["secret", "rm", slug, "API_KEY"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no secret API_KEY");
  });

  it("refuses a bad name, an empty value, another team and a missing name, without echoing the value", {
    timeout: 120_000,
  }, async () => {
    const slug = agent.agent.slug;
    const badName = await agentfold(["secret", "set", slug, "bad-name"], "some-typed-value");
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain("environment variable name");
    expect(badName.stderr + badName.stdout).not.toContain("some-typed-value");
    expect((await agentfold(["secret", "set", slug, "API_KEY"], "")).stderr).toContain("must not be empty");
    const elsewhere = await agentfold(["secret", "set", slug, "API_KEY", "--team", "no-such-team"], "value-x");
    expect(elsewhere).toMatchObject({ code: 1 });
    expect(elsewhere.stderr).toContain(`no agent '${slug}' in team 'no-such-team'`);
    expect((await agentfold(["secret", "set", slug])).code).toBe(2);
    expect(await valuesOfVersion()).toEqual({});
  });
});

describe("secrets in info and validate", () => {
  it("lists the names a folder expects, and which are missing where it is deployed", { timeout: 120_000 }, async () => {
    const dir = writeFiles(path.join(scratch, "folder"), {
      "bot/instructions.md": "Help.",
      "bot/agent.ts":
        'import { defineAgent } from "agentfold";\nexport default defineAgent({ hosting: { secretNames: ["API_KEY", "OTHER_TOKEN"] } });\n',
    });
    await agentfold(["secret", "set", agent.agent.slug, "API_KEY"], "info-never-shows-this");
    const info = await agentfold(["info", "--dir", dir, "--slug", agent.agent.slug]);
    expect(info.stdout).toContain(`secrets (2)\n  API_KEY  set\n  OTHER_TOKEN  missing on ${agent.agent.slug}`);
    const json = JSON.parse((await agentfold(["info", "--dir", dir, "--slug", agent.agent.slug, "--json"])).stdout);
    expect(json.secrets).toEqual({
      names: ["API_KEY", "OTHER_TOKEN"],
      deployedAs: agent.agent.slug,
      missing: ["OTHER_TOKEN"],
    });
    // Not deployed under that name: the names alone.
    const undeployed = JSON.parse((await agentfold(["info", "--dir", dir, "--json"])).stdout);
    expect(undeployed.secrets).toEqual({ names: ["API_KEY", "OTHER_TOKEN"] });
    const validated = await agentfold(["validate", "--dir", dir]);
    expect(validated.stdout).toContain("secrets expected: API_KEY, OTHER_TOKEN");
    for (const output of [info, validated]) expect(output.stdout).not.toContain("info-never-shows-this");
  });
});
