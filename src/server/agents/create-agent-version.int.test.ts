import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { AppError } from "@/server/errors";
import crypto from "node:crypto";
import { tarGzOf, zipFiles, zipOf, zipWithUnsafeName } from "@/testing/archives";
import { activateAgentVersion } from "./activate-agent-version";
import { createAgentVersion } from "./create-agent-version";

const db = createDb(inject("databaseUrl"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-versions-"));
const suffix = Date.now().toString(36);
let teamId: string;
let otherTeamId: string;

const valid = {
  "package.json": '{"name":"Desk"}',
  "bot/instructions.md": "Help customers.",
  "bot/tools/lookup.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Looks up an order", effect: "read",
  inputSchema: z.object({ orderId: z.string() }), async execute({ orderId }) { return { orderId }; } });`,
};

beforeAll(async () => {
  teamId = (await db.team.create({ data: { slug: `t-${suffix}`, name: "Team" } })).id;
  otherTeamId = (await db.team.create({ data: { slug: `o-${suffix}`, name: "Other" } })).id;
});

afterAll(async () => {
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Other test files write versions to the same database at the same time: count only ours.
const teamVersionCount = () => db.agentVersion.count({ where: { agent: { teamId } } });

const upload = async (slug: string, files: Record<string, string>, team = teamId) =>
  createAgentVersion({ db, dataDir, teamId: team, slug, archive: await zipFiles(files, { wrap: "desk" }) });

describe("uploaded agent versions", () => {
  const slug = `desk-${suffix}`;

  it("stores a valid upload as the active version with its manifest", async () => {
    const version = await upload(slug, valid);
    expect(version).toMatchObject({ number: 1, status: "ready", isActive: true, slug });
    expect(version.manifest?.tools.map((t) => t.name)).toEqual(["lookup"]);
    expect(version.manifest?.tools[0]?.inputSchema).toMatchObject({ properties: { orderId: { type: "string" } } });
    const agent = await db.agent.findUniqueOrThrow({ where: { slug } });
    expect(agent.name).toBe("Desk");
    const versionDir = path.join(dataDir, "agents", agent.id, "versions", version.id);
    expect(fs.existsSync(path.join(versionDir, "source", "bot", "instructions.md"))).toBe(true);
    expect(fs.existsSync(path.join(versionDir, "source.zip"))).toBe(true);
    expect(fs.existsSync(path.join(versionDir, "bundle", "agent.mjs"))).toBe(true);
  });

  it("keeps an invalid upload with its diagnostics, without activating it", async () => {
    const { "bot/instructions.md": _, ...broken } = valid;
    const version = await upload(slug, broken);
    expect(version).toMatchObject({ number: 2, status: "invalid", isActive: false });
    expect(version.diagnostics).toContainEqual({
      level: "error",
      message: "the root agent has no instructions: add bot/instructions.md",
    });
    const agent = await db.agent.findUniqueOrThrow({
      where: { slug },
      select: { activeVersion: { select: { number: true } } },
    });
    expect(agent.activeVersion?.number).toBe(1);
  });

  it("takes the display name from defineAgent's name over the package name", async () => {
    const named = `named-${suffix}`;
    const agentTs = 'import { defineAgent } from "agentfold";\nexport default defineAgent({ name: "Weather desk" });\n';
    const version = await upload(named, { ...valid, "bot/agent.ts": agentTs });
    expect(version).toMatchObject({ status: "ready", manifest: { name: "Weather desk" } });
    expect((await db.agent.findUniqueOrThrow({ where: { slug: named } })).name).toBe("Weather desk");
  });

  it("keeps a folder with an impossible markdown cron invalid, naming the file and croner's reason", async () => {
    const version = await upload(`cron-${suffix}`, {
      ...valid,
      "bot/schedules/nightly.md": '---\ncron: "61 25 * * *"\n---\nSummarise.',
    });
    expect(version.status).toBe("invalid");
    expect(version.diagnostics).toContainEqual(
      expect.objectContaining({
        level: "error",
        file: "bot/schedules/nightly.md",
        message: expect.stringContaining("Invalid value for minute: 61"),
      }),
    );
  });

  it("switches versions atomically and rolls back to an old one", async () => {
    const third = await upload(slug, { ...valid, "bot/instructions.md": "Help customers, v3." });
    expect(third).toMatchObject({ number: 3, isActive: true });
    const rolledBack = await activateAgentVersion({ db, teamId, slug, versionNumber: 1 });
    expect(rolledBack).toMatchObject({ number: 1, isActive: true });
    await expect(activateAgentVersion({ db, teamId, slug, versionNumber: 2 })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("rejects an unsafe archive with 422 and writes nothing", async () => {
    const before = await teamVersionCount();
    const agentsBefore = fs.readdirSync(path.join(dataDir, "agents")).length;
    const archive = await zipWithUnsafeName("../../escape.txt");
    const error = await createAgentVersion({ db, dataDir, teamId, slug: `evil-${suffix}`, archive }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "invalid_upload", status: 422 });
    expect(await teamVersionCount()).toBe(before);
    expect(await db.agent.findUnique({ where: { slug: `evil-${suffix}` } })).toBeNull();
    expect(fs.readdirSync(path.join(dataDir, "agents")).length).toBe(agentsBefore);
    expect(fs.existsSync(path.join(dataDir, "..", "escape.txt"))).toBe(false);
  });

  it("marks a version invalid when a peer connection names an agent not in its team", async () => {
    const peer = (target: string) =>
      `import { defineConnection } from "agentfold/connections";\nexport default defineConnection({ agent: ${JSON.stringify(target)} });`;
    const missing = await upload(`peer-${suffix}`, {
      ...valid,
      "bot/mcp-connections/helper.ts": peer("nowhere-agent"),
    });
    expect(missing.status).toBe("invalid");
    expect(missing.diagnostics).toContainEqual({
      level: "error",
      file: "bot/mcp-connections/helper.ts",
      message: "peer agent 'nowhere-agent' is not in this team",
    });
    const present = await upload(`peer2-${suffix}`, { ...valid, "bot/mcp-connections/helper.ts": peer(slug) });
    expect(present.status).toBe("ready");
  });

  const unsafe: [string, () => Promise<Buffer>, RegExp][] = [
    [
      "a symlink",
      () =>
        tarGzOf([
          { name: "bot/instructions.md", content: "x" },
          { name: "bot/link", type: "symlink", linkname: "/etc/passwd" },
        ]),
      /symlink/,
    ],
    [
      "an archive bomb",
      () =>
        zipOf([
          { name: "bot/instructions.md", content: "x" },
          { name: "bot/zeros.txt", content: Buffer.alloc(20 * 1024 * 1024) },
        ]),
      /compression ratio over 100:1/,
    ],
    [
      "an archive that expands past 50 MiB",
      () =>
        zipOf(
          Array.from({ length: 40 }, (_, i) => ({
            name: `bot/data/${i}.txt`,
            content: crypto.randomBytes(1024 * 1024).toString("base64"),
          })),
        ),
      /expands to more than 50 MiB/,
    ],
    ["something that is not an archive", async () => Buffer.from("#!/bin/sh\necho hi\n"), /unsupported archive format/],
  ];
  for (const [what, build, message] of unsafe) {
    it(`rejects ${what} with 422 and writes nothing`, { timeout: 60_000 }, async () => {
      const before = await teamVersionCount();
      const dirsBefore = fs.readdirSync(path.join(dataDir, "agents")).length;
      const slug = `bad-${crypto.randomUUID().slice(0, 8)}`;
      const error = await createAgentVersion({ db, dataDir, teamId, slug, archive: await build() }).catch((e) => e);
      expect(error).toMatchObject({ code: "invalid_upload", status: 422 });
      expect(error.message).toMatch(message);
      expect(await teamVersionCount()).toBe(before);
      expect(await db.agent.findUnique({ where: { slug } })).toBeNull();
      expect(fs.readdirSync(path.join(dataDir, "agents")).length).toBe(dirsBefore);
    });
  }

  it("enforces slug rules and keeps slugs unique on the instance", async () => {
    await expect(upload("playground", valid)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(upload(slug, valid, otherTeamId)).rejects.toMatchObject({ code: "conflict" });
  });

  it("keeps slugs unique ignoring case, in any team, down to the database", async () => {
    const first = `Weather-${suffix}`;
    await upload(first, valid);
    for (const [twin, team] of [
      [first.toLowerCase(), teamId],
      [first.toUpperCase(), otherTeamId],
    ] as const) {
      const refused = await upload(twin, valid, team).catch((error: AppError) => error);
      expect(refused).toMatchObject({
        code: "conflict",
        status: 409,
        message: `the slug '${twin}' is taken by the agent '${first}' (slugs are unique ignoring case)`,
      });
    }
    expect(await db.agent.count({ where: { slug: { equals: first, mode: "insensitive" } } })).toBe(1);
    // Two uploads that both passed the check race to the index: the second insert fails.
    await expect(db.agent.create({ data: { teamId, slug: first.toLowerCase(), name: "twin" } })).rejects.toMatchObject({
      code: "P2002",
    });
  });
});
