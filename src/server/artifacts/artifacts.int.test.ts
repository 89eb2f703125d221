// Artifacts on the real engine (docs/agent-folders.md, "Artifacts"): a tool tags through the
// registry (unknown kinds and bad data refused with the reason), the parsed value is stored, the
// oldest-updated go past `max`, the model's tag_artifact appends artifact.tagged, and a hook's
// facade fills in the turn.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import type { AgentRef } from "@/server/sessions/start-session";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { listArtifacts } from "./list-artifacts";

const folder = {
  "bot/instructions.md": "You keep reports.",
  "bot/artifacts.ts": `import { defineArtifacts } from "agentfold/artifacts";
import { z } from "zod";
export default defineArtifacts({
  kinds: {
    report: { description: "A scored report", schema: z.object({ score: z.coerce.number(), tags: z.array(z.string()).default([]) }) },
    note: { description: "A free-form note" },
  },
  agentTool: true,
  max: 3,
});
`,
  "bot/tools/tagger.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "tags", effect: "write", async execute(input, ctx) {
  const out = [];
  for (const tag of input.tags) {
    try { out.push(await ctx.artifacts.tag(tag)); } catch (error) { out.push({ error: error.message }); }
  }
  return out;
} });
`,
  "bot/hooks/audit.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "turn.completed": async (event, ctx) => {
  await ctx.artifacts.tag({ kind: "note", key: "last-turn", title: "Last turn", data: { session: ctx.session.id } });
} } });
`,
};

let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("reports", folder);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function turn(message: string): Promise<SessionEvent[]> {
  const { sessionId } = await h.start(agent, { message });
  return h.eventsUntil(sessionId, has("turn.completed"));
}

const call = (tool: string, input: object) => `[call ${tool} ${JSON.stringify(input)}]`;

describe("artifacts", () => {
  it("tags through the registry: parsed data stored, unknown kinds and bad data refused", async () => {
    const log = await turn(
      call("tagger", {
        tags: [
          { kind: "report", key: "r1", title: "First", data: { score: "7" } },
          { kind: "memo", key: "m1", data: {} },
          { kind: "report", key: "r2", data: { score: "high" } },
        ],
      }),
    );
    const [stored, unknown, invalid] = ofType(log, "action.result")[0]!.data.output as Record<string, unknown>[];
    expect(stored).toMatchObject({
      kind: "report",
      key: "r1",
      title: "First",
      data: { score: 7, tags: [] },
      sessionId: log[0]!.sessionId,
    });
    expect(unknown!.error).toBe('unknown artifact kind "memo"; declared kinds: report, note');
    expect(String(invalid!.error)).toMatch(/^artifact data does not match kind "report": score: /);
    // The audit hook's own tag (kind note) may follow turn.completed in the same log.
    expect(
      ofType(log, "artifact.tagged")
        .filter((e) => e.data.kind === "report")
        .map((e) => e.data),
    ).toEqual([{ kind: "report", key: "r1", title: "First", data: { score: 7, tags: [] } }]);
  });

  it("keeps at most `max`: a fourth record evicts the oldest-updated", async () => {
    await turn(call("tagger", { tags: ["a", "b", "c", "d"].map((key) => ({ kind: "note", key, data: { key } })) }));
    const keys = async () => (await listArtifacts(h.db, agent.id, {})).map((record) => record.key);
    // The audit hook tags `last-turn` after each turn: wait for it, then look.
    await waitFor("the hook's tag", async () => (await keys()).includes("last-turn"), { timeoutMs: 20_000 });
    const left = await keys();
    expect(left).toHaveLength(3);
    expect(left).not.toContain("a");
    expect(left).not.toContain("b");
  });

  it("gives the model tag_artifact, which appends artifact.tagged with the turn", async () => {
    const log = await turn(call("tag_artifact", { kind: "report", key: "from-model", data: { score: 3 } }));
    const tagged = ofType(log, "artifact.tagged").find((e) => e.data.kind === "report")!;
    expect(tagged.data).toEqual({ kind: "report", key: "from-model", data: { score: 3, tags: [] } });
    expect(tagged.turnId).toBe(ofType(log, "turn.started")[0]!.turnId);
    const refused = await turn(call("tag_artifact", { kind: "nope", key: "x" }));
    expect(ofType(refused, "action.result")[0]!.data).toMatchObject({ isError: true });
  });

  it("fills in the hook's session and turn", async () => {
    const log = await turn("hello");
    const sessionId = log[0]!.sessionId;
    await waitFor(
      "the hook's record of this session",
      async () => (await listArtifacts(h.db, agent.id, { kind: "note" })).some((r) => r.sessionId === sessionId),
      { timeoutMs: 20_000 },
    );
    const record = (await listArtifacts(h.db, agent.id, { kind: "note" })).find((r) => r.key === "last-turn")!;
    expect(record).toMatchObject({
      sessionId,
      turnId: ofType(log, "turn.completed")[0]!.turnId,
      data: { session: sessionId },
    });
  });
});
