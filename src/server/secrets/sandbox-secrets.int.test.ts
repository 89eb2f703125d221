// Secrets as agent code meets them: set through the service, read by a tool as process.env in
// its sandbox (the real worker, its reader and sandbox pool), only the names its version
// declares, and a rotation or removal seen by the next calls without a redeploy.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Caller } from "@/server/auth/principal";
import type { AgentRef } from "@/server/sessions/start-session";
import { callTool } from "@/server/tools/call-tool";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import { removeSecret } from "./remove-secret";
import { readOrCreateSecretKey } from "./secret-key";
import { setSecret } from "./set-secret";

const secretAgent: Record<string, string> = {
  "bot/instructions.md": "You are the secrets test agent.",
  "bot/agent.ts": 'import { defineAgent } from "agentfold";\nexport default defineAgent({ hosting: { secretNames: ["API_KEY"] } });\n',
  "bot/tools/peek.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "what the sandbox's environment holds", effect: "read",
  async execute() { return { apiKey: process.env.API_KEY ?? null, undeclared: process.env.UNDECLARED ?? null }; } });
`,
};

let h: Harness;
let agent: AgentRef;
let key: Buffer;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("secrets", secretAgent);
  // The harness's worker gets no key: it uses its data directory's, as every process there does.
  key = readOrCreateSecretKey(h.dataDir);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const owner = (): Caller => ({ principal: h.owner, can: () => false });
const peek = async () => (await callTool({ db: h.db, runtime: h.runtime, agent, caller: owner(), toolName: "peek", body: { input: {} } })).output;
const set = (name: string, value: string) => setSecret({ db: h.db, key, agentId: agent.id, name, value });

describe("secrets in the sandbox", () => {
  it("reach a tool as process.env, declared names only, and follow rotations and removals", { timeout: 60_000 }, async () => {
    expect(await peek()).toEqual({ apiKey: null, undeclared: null });
    await set("API_KEY", "first-api-key");
    await set("UNDECLARED", "never-in-the-sandbox");
    await expect.poll(peek, { timeout: 10_000 }).toEqual({ apiKey: "first-api-key", undeclared: null });
    await set("API_KEY", "rotated-api-key");
    await expect.poll(peek, { timeout: 10_000 }).toEqual({ apiKey: "rotated-api-key", undeclared: null });
    await removeSecret({ db: h.db, agentId: agent.id, name: "API_KEY" });
    await expect.poll(peek, { timeout: 10_000 }).toEqual({ apiKey: null, undeclared: null });
  });
});
