import { describe, expect, it } from "vitest";
import { Diagnostics } from "./diagnostics";
import { checkHostMembers } from "./host-members";

const warnings = (texts: Record<string, string>) => {
  const diagnostics = new Diagnostics();
  checkHostMembers(diagnostics, new Map(Object.entries(texts)));
  return diagnostics.items.map((d) => `${d.file}: ${d.message}`);
};

describe("validate's check of host members the platform lacks", () => {
  it("says so for each member used, however it is reached", () => {
    expect(
      warnings({
        "bot/tools/a.ts": "await ctx.host.github.request('GET /user'); ctx.host?.slack.getClient();",
        "bot/hooks/b.ts": "const { github, kv } = ctx.host; github.request('GET /user');",
      }),
    ).toEqual([
      "bot/tools/a.ts: ctx.host.github is not available on this platform yet; calls to it throw",
      "bot/tools/a.ts: ctx.host.slack is not available on this platform yet; calls to it throw",
      "bot/hooks/b.ts: ctx.host.github is not available on this platform yet; calls to it throw",
    ]);
  });

  it("is quiet about what exists: kv, files, reminders, otel, mcp, artifacts", () => {
    expect(
      warnings({
        "bot/tools/a.ts":
          "await ctx.host.kv.get('k'); await ctx.host.files.read('f'); ctx.host.reminders.list(); await ctx.artifacts.tag({ key: 'k' });",
        "bot/hooks/b.ts":
          "const { otel, kv } = ctx.host; otel.increment('x'); ctx.host.otel.tag('tier', 'gold'); ctx.host.mcp.names();",
      }),
    ).toEqual([]);
  });
});
