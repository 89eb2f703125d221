import { describe, expect, it } from "vitest";
import { checkChannelSupport, checkExtensionMounts } from "./channel-support";
import { Diagnostics } from "./diagnostics";
import type { AgentLayout } from "./layout";
import type { AgentManifest } from "./manifest";
import type { FieldLines } from "./source-lines";

const channel = (name: string, config: object) => ({ name, file: `bot/channels/${name}.ts`, routes: [], config });

describe("validate's check of channel parts the platform does not run", () => {
  it("warns about pack options without effect and onStart, not about custom channels", () => {
    const diagnostics = new Diagnostics();
    const channels = [
      channel("slack", { pack: "slack", reply: { mode: "post" } }),
      channel("agentic", { pack: "slack", reply: { mode: "agent" } }),
      channel("github", { pack: "github", repos: ["acme/shop"] }),
      channel("cursor", { pack: "github", repos: ["acme/shop"], hasCursorAccount: true }),
      channel("hosted", { pack: "slack", engagement: "all", suggestedPrompts: ["Hi"] }),
      channel("quiet", { pack: "github", webhookEvents: ["pull_request"], progress: { reactions: true } }),
      channel("webhook", { pack: "custom", hasOnStart: true }),
      channel("plain", { pack: "custom", hasOnStart: false }),
    ] as AgentManifest["channels"];
    checkChannelSupport(diagnostics, channels);
    expect(diagnostics.items.map((d) => `${d.file}: ${d.message}`)).toEqual([
      'bot/channels/agentic.ts: slackChannel(): reply.mode "agent" posts each finished message here, as "post" does',
      "bot/channels/cursor.ts: cursorAccount: needs a GitHub App on self-hosted Agentfold; its repos are watched (docs/integrations.md#github)",
      "bot/channels/hosted.ts: slackChannel(): engagement is ignored on Agentfold: Cursor's hosted Slack app decides engagement; here the bot wakes on mentions, DMs, threads it is in and watchChannels",
      "bot/channels/hosted.ts: slackChannel(): suggestedPrompts is ignored on Agentfold: suggested prompts are a setting of Cursor's hosted Slack app",
      "bot/channels/quiet.ts: githubChannel(): webhookEvents is ignored on Agentfold: the GitHub App's own event subscription decides what arrives (docs/integrations.md#github)",
      "bot/channels/quiet.ts: githubChannel(): progress.reactions is ignored on Agentfold: progress shows as a commit status and a banner",
      "bot/channels/webhook.ts: defineChannel(): onStart is ignored on Agentfold: a channel here is never started — its routes and events run in sandboxes started on demand; do start-up work in a schedule, or on a handler's first call",
    ]);
  });

  it("puts the onStart warning on the line that defines it, in each way it is written", () => {
    const sources: Record<string, string[]> = {
      "bot/channels/field.ts": ["export default defineChannel({", "  routes: [],", "  onStart: async () => {},", "});"],
      "bot/channels/method.ts": ["export default defineChannel({", "  async onStart(ctx) {},", "});"],
      "bot/channels/shorthand.ts": ["const onStart = () => {};", "export default defineChannel({ onStart });"],
    };
    const lineOf: FieldLines = (file, key) => {
      const index = sources[file!]!.findIndex((line) => (key as RegExp).test(line));
      return index >= 0 ? index + 1 : undefined;
    };
    const diagnostics = new Diagnostics();
    const channels = Object.keys(sources).map((file) => ({
      ...channel("x", { pack: "custom", hasOnStart: true }),
      file,
    })) as AgentManifest["channels"];
    checkChannelSupport(diagnostics, channels, lineOf);
    expect(diagnostics.items.map((d) => `${d.file}:${d.line}`)).toEqual([
      "bot/channels/field.ts:3",
      "bot/channels/method.ts:2",
      "bot/channels/shorthand.ts:2",
    ]);
  });
});

describe("validate's check of extension mounts", () => {
  it("warns once per mount that loaded, on its default export, and not again on one that failed", () => {
    const diagnostics = new Diagnostics();
    diagnostics.error("bot/extensions/cloud.ts", "'@cursor/bdk/extensions/cursor-cloud-agents' is Cursor-hosted only");
    const layout = {
      extensions: [
        { name: "ci", file: "bot/extensions/ci.ts" },
        { name: "cloud", file: "bot/extensions/cloud.ts" },
      ],
    } as AgentLayout;
    checkExtensionMounts(diagnostics, layout, (file, key) => (file === "bot/extensions/ci.ts" && key ? 3 : undefined));
    expect(diagnostics.items.map((d) => `${d.level}: ${d.file}:${d.line ?? "-"}: ${d.message}`)).toEqual([
      "error: bot/extensions/cloud.ts:-: '@cursor/bdk/extensions/cursor-cloud-agents' is Cursor-hosted only",
      "warning: bot/extensions/ci.ts:3: extension mounts are ignored on Agentfold: nothing this file contributes (tools, skills, connections, hooks …) is mounted; copy what the agent needs into bot/ (docs/compatibility.md)",
    ]);
  });
});
