// Secrets as agent code meets them: set through the service, read by a tool as process.env in
// its sandbox (the real worker, its reader and sandbox pool), only the names its version
// declares and only in its own agent, a rotation or removal seen by the next calls without a
// redeploy, and never a value in what comes back (the tool reports a fingerprint; a value it
// echoes is masked).
import crypto from "node:crypto";
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
  "bot/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ hosting: { secretNames: ["API_KEY"] } });\n',
  "bot/tools/peek.ts": `import { defineTool } from "agentfold/tools";
import crypto from "node:crypto";
const print = (value) => value === undefined ? null : crypto.createHash("sha256").update(value).digest("hex").slice(0, 12);
export default defineTool({ description: "what the sandbox's environment holds", effect: "read",
  async execute() { return { apiKey: print(process.env.API_KEY), undeclared: print(process.env.UNDECLARED), echoed: process.env.API_KEY ?? null }; } });
`,
};

let h: Harness;
let agent: AgentRef;
let neighbour: AgentRef;
let key: Buffer;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("secrets", secretAgent);
  neighbour = await h.deploy("neighbour", secretAgent);
  // The harness's worker gets no key: it uses its data directory's, as every process there does.
  key = readOrCreateSecretKey(h.dataDir);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const owner = (): Caller => ({ principal: h.owner, can: () => false });
const peekAt = async (on: AgentRef) =>
  (await callTool({ db: h.db, runtime: h.runtime, agent: on, caller: owner(), toolName: "peek", body: { input: {} } }))
    .output;
const peek = () => peekAt(agent);
const print = (value: string) => crypto.createHash("sha256").update(value).digest("hex").slice(0, 12);
const set = (name: string, value: string) => setSecret({ db: h.db, key, agentId: agent.id, name, value });

describe("secrets in the sandbox", () => {
  it("reach a tool as process.env, declared names only, and follow rotations and removals", {
    timeout: 60_000,
  }, async () => {
    expect(await peek()).toEqual({ apiKey: null, undeclared: null, echoed: null });
    await set("API_KEY", "first-api-key");
    await set("UNDECLARED", "never-in-the-sandbox");
    await expect
      .poll(peek, { timeout: 10_000 })
      .toEqual({ apiKey: print("first-api-key"), undeclared: null, echoed: "[secret]" });
    // Another agent declaring the same name gets nothing: secrets are per agent.
    expect(await peekAt(neighbour)).toEqual({ apiKey: null, undeclared: null, echoed: null });
    await set("API_KEY", "rotated-api-key");
    await expect
      .poll(peek, { timeout: 10_000 })
      .toEqual({ apiKey: print("rotated-api-key"), undeclared: null, echoed: "[secret]" });
    // A turn that calls the tool: the value is in no event.
    const started = await h.start(agent, { message: "[call peek {}]" });
    const log = await h.eventsUntil(started.sessionId, (events) => events.some((e) => e.type === "session.waiting"));
    expect(log.some((e) => e.type === "action.result")).toBe(true);
    expect(JSON.stringify(log)).not.toContain("rotated-api-key");
    await removeSecret({ db: h.db, agentId: agent.id, name: "API_KEY" });
    await expect.poll(peek, { timeout: 10_000 }).toEqual({ apiKey: null, undeclared: null, echoed: null });
  });
});
