// Peer agents as a turn meets them: agent A's `<connection>__ask` starts a real session of agent B
// (same team, A's session's owner as the caller), waits for B's turn and answers its reply; a
// follow-up with the sessionId continues B's session; `__check` reports it; a chain of asks that
// comes back to A is refused inside B's turn.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import type { AgentRef } from "@/server/sessions/start-session";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;

const peerConnection = (slug: string) =>
  `import { defineConnection } from "agentfold/connections";\nexport default defineConnection({ agent: ${JSON.stringify(slug)}, description: "the other desk" });\n`;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const finished = (log: SessionEvent[]) => log.some((e) => e.type === "session.waiting" || e.type === "turn.failed");

async function turn(agent: AgentRef, message: string): Promise<SessionEvent[]> {
  const started = await h.start(agent, { message });
  return h.eventsUntil(started.sessionId, finished, 40_000);
}

type Asked = { sessionId: string; status: string; reply: string | null; error?: string };
const outputs = (log: SessionEvent[]) => ofType(log, "action.result").map((e) => e.data);

describe("peer agents", () => {
  let a: AgentRef;
  let b: AgentRef;

  beforeAll(async () => {
    b = await h.deploy("peer-b", { "bot/instructions.md": "You are desk B." });
    a = await h.deploy("peer-a", {
      "bot/instructions.md": "You are desk A.",
      "bot/mcp-connections/desk.ts": peerConnection(b.slug),
    });
  });

  it("asks another agent of the team and gets its reply; a follow-up continues that session", {
    timeout: 90_000,
  }, async () => {
    const first = await turn(a, '[call desk__ask {"message":"hello from A"}]');
    expect(ofType(first, "turn.failed")).toEqual([]);
    const [asked] = outputs(first);
    expect(asked).toMatchObject({ toolName: "desk__ask", isError: false });
    const answer = asked!.output as Asked;
    expect(answer.status).toBe("completed");
    const peerLog = await h.events(answer.sessionId);
    expect(ofType(peerLog, "message.received")[0]!.data.text).toBe("hello from A");
    expect(answer.reply).toBe(ofType(peerLog, "message.completed").at(-1)!.data.text);
    // B's session belongs to the owner of A's session, and to B.
    const session = await h.db.session.findUniqueOrThrow({ where: { id: answer.sessionId } });
    expect({ agentId: session.agentId, ownerId: session.ownerId }).toEqual({ agentId: b.id, ownerId: h.owner.id });

    const again = JSON.stringify({ message: "and again", sessionId: answer.sessionId });
    const second = await turn(
      a,
      `[call desk__ask ${again}] [call desk__check ${JSON.stringify({ sessionId: answer.sessionId })}]`,
    );
    const [followed, checked] = outputs(second);
    expect((followed!.output as Asked).sessionId).toBe(answer.sessionId);
    expect(ofType(await h.events(answer.sessionId), "message.received").map((e) => e.data.text)).toEqual([
      "hello from A",
      "and again",
    ]);
    expect(checked!.output).toMatchObject({ sessionId: answer.sessionId, status: "completed", pendingApprovals: [] });
  });

  it("refuses a chain of asks that comes back to an agent in it (A → B → A)", { timeout: 90_000 }, async () => {
    const first = await h.deploy("loop-x", { "bot/instructions.md": "You are X." });
    const y = await h.deploy("loop-y", {
      "bot/instructions.md": "You are Y.",
      "bot/mcp-connections/x.ts": peerConnection(first.slug),
    });
    // X's next version asks Y back.
    const x = await h.deploy("loop-x", {
      "bot/instructions.md": "You are X.",
      "bot/mcp-connections/y.ts": peerConnection(y.slug),
    });
    const inner = JSON.stringify({ message: '[call x__ask {"message":"round and round"}]' });
    const log = await turn(x, `[call y__ask ${inner}]`);
    const answer = outputs(log)[0]!.output as Asked;
    expect(answer.status).toBe("completed");
    const yLog = await h.events(answer.sessionId);
    const [refused] = outputs(yLog);
    expect(refused).toMatchObject({ toolName: "x__ask", isError: true });
    expect(String(refused!.output)).toContain(
      `refused: asking ${x.slug} would close a cycle (${x.slug} → ${y.slug} → ${x.slug})`,
    );
    // Nothing was sent to X a second time.
    expect(await h.db.session.count({ where: { agentId: x.id } })).toBe(1);
  });
});
