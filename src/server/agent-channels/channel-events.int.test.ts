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
import path from "node:path";
import { createSandboxPool } from "@/agents/sandbox/pool";
import { callRoute } from "@/agents/sandbox/route-call";
import { projectRoot } from "@/cli/start/project";
import { versionSandboxSpec } from "@/server/agents/storage";
import { hostCallHandler } from "@/server/turns/host-calls";
import { readFiles } from "@/testing/folders";
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

describe("examples/ticket-webhook", () => {
  it("answers 202 at once and posts each reply to the ticket's callback URL", async () => {
    const tickets = await h.deploy("tickets", readFiles(path.join(projectRoot, "examples", "ticket-webhook")));
    const version = await h.db.agentVersion.findUniqueOrThrow({ where: { id: tickets.activeVersionId! } });
    const bundlePath = path.join(h.dataDir, version.bundlePath!);
    // The route half as the web runs it: the example's handler in a sandbox, its send() a host call.
    const sandboxes = createSandboxPool({
      onHostCall: hostCallHandler({ db: h.db, dataDir: h.dataDir, runtime: h.runtime, sandboxes: () => sandboxes }),
    });
    const principal = { kind: "app" as const, id: "token:test" };
    const post = async (ticketId: string, text: string) => {
      const call = await callRoute(
        sandboxes.forVersion(versionSandboxSpec(h.dataDir, { agentId: tickets.id, versionId: version.id, bundlePath })),
        {
          channelId: "tickets",
          file: "bot/channels/tickets.ts",
          method: "POST",
          pattern: "/",
          url: `http://agentfold.test/${tickets.slug}/v1/channels/tickets`,
          params: {},
          query: {},
          headers: { "content-type": "application/json" },
          body: Buffer.from(
            JSON.stringify({ ticketId, text, callbackUrl: `http://receiver.test:${port}/tickets/${ticketId}` }),
          ).toString("base64"),
          principal,
          isDirectLoopback: false,
        },
        { hostContext: { agentId: tickets.id, versionId: version.id, bundlePath, channelId: "tickets", principal } },
      );
      return { status: call.status, json: JSON.parse(await new Response(call.body).text()) };
    };
    try {
      const before = received.length;
      const accepted = await post("T-9", "[say: We are on it.]");
      expect(accepted.status).toBe(202);
      const { sessionId } = accepted.json;
      await waitFor("the reply at the callback", async () => received.length > before, { timeoutMs: 20_000 });
      expect(received.at(-1)).toEqual({
        path: "/tickets/T-9",
        body: { ticketId: "T-9", reply: "We are on it.", n: 1 },
      });
      const again = await post("T-9", "[say: Shipped today.]");
      expect(again.json.sessionId).toBe(sessionId);
      await waitFor("the second reply", async () => received.length > before + 1, { timeoutMs: 20_000 });
      expect(received.at(-1)!.body).toEqual({ ticketId: "T-9", reply: "Shipped today.", n: 2 });
    } finally {
      await sandboxes.stopAll();
    }
  }, 90_000);
});
