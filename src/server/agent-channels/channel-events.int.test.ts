// A channel's `events` map on the real engine: its handlers see the channel's sessions' events
// before hooks, keep per-session state, post replies back to the surface (a local HTTP receiver
// here), and re-key the conversation with setContinuationToken (docs/agent-folders.md, "Channels").
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { createKvStore } from "@/server/host-state/kv";
import { sendFromAgent } from "@/server/sessions/send-from-agent";
import type { AgentRef } from "@/server/sessions/start-session";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";

const received: { path: string; body: unknown }[] = [];
let receiver: http.Server;
let port: number;
let h: Harness;
let agent: AgentRef;

const channel = (receiverUrl: string) => `import { defineChannel } from "agentfold/channels";
export default defineChannel({
  state: { replies: 0 },
  events: {
    "message.completed": async (event, channel) => {
      channel.state.replies += 1;
      await fetch("${receiverUrl}/reply", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ session: channel.session.id, text: event.data.text, replies: channel.state.replies }) });
      if (channel.state.replies === 1) channel.setContinuationToken("renamed:" + channel.session.id);
    },
  },
});
`;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: JSON.parse(body) });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), egressHosts: ["receiver.test"] });
  agent = await h.deploy("surface", {
    "bot/instructions.md": "You answer on a surface.",
    "bot/channels/surface.ts": channel(`http://receiver.test:${port}`),
    "bot/hooks/after.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "message.completed": async (event, ctx) => {
  // The channel's handler ran first: the receiver has the reply by now.
  await ctx.host.kv.put("hook-saw:" + ctx.session.id, true);
} } });
`,
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
  receiver?.close();
});

const caller = () => ({
  agentId: agent.id,
  slug: agent.slug,
  teamId: agent.teamId,
  principal: h.owner,
  channelId: "surface",
});

describe("a channel's events map", () => {
  it("posts each reply to the surface with the session's state, before hooks, and re-keys the conversation", async () => {
    const send = (message: string, key: string) =>
      sendFromAgent({
        db: h.db,
        runtime: h.runtime,
        caller: caller(),
        params: { channelId: "surface", message, options: { continuationToken: key } },
      });
    const first = await send("[say: first reply]", "thread:1");
    await waitFor("the reply to reach the surface", async () => received.length >= 1, { timeoutMs: 20_000 });
    expect(received[0]).toEqual({ path: "/reply", body: { session: first.id, text: "first reply", replies: 1 } });
    await waitFor(
      "the hook to run after it",
      async () => (await createKvStore(h.db, agent.id).get(`hook-saw:${first.id}`)) === true,
      {
        timeoutMs: 20_000,
      },
    );
    // setContinuationToken moved the session to a new key: the old one starts a new session.
    const renamed = await send("[say: second reply]", `renamed:${first.id}`);
    expect(renamed.id).toBe(first.id);
    await waitFor("the second reply", async () => received.length >= 2, { timeoutMs: 20_000 });
    expect(received[1]!.body).toEqual({ session: first.id, text: "second reply", replies: 2 });
    const fresh = await send("[say: elsewhere]", "thread:1");
    expect(fresh.id).not.toBe(first.id);
  }, 90_000);
});
