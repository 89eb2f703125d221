// The Slack app manifest, and the scope table docs/integrations.md shows self-hosters: the doctor
// quotes the same reasons, so the two must not drift apart.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { slackAppManifest, slackBotScopes } from "./app-manifest";

const urls = { eventsUrl: "https://a.example/desk/v1/channels/slack/events", interactivityUrl: "https://a.example/i" };

test("request URLs for the Events API; none over Socket Mode, where Slack sends on the WebSocket", () => {
  const http = slackAppManifest({ agentName: "Desk", botName: "desk", socketMode: false, ...urls });
  expect(http.settings).toMatchObject({
    event_subscriptions: { request_url: urls.eventsUrl },
    interactivity: { is_enabled: true, request_url: urls.interactivityUrl },
    socket_mode_enabled: false,
  });
  const socket = slackAppManifest({ agentName: "Desk", botName: "desk", socketMode: true, ...urls });
  expect(socket.settings.socket_mode_enabled).toBe(true);
  expect(socket.settings.event_subscriptions).not.toHaveProperty("request_url");
  expect(socket.settings.interactivity).toEqual({ is_enabled: true });
});

test("keeps within Slack's limits: a name of 35 characters, a description of 140", () => {
  const manifest = slackAppManifest({
    agentName: "A very long agent name that Slack would refuse",
    botName: "desk",
    description: "x".repeat(300),
    socketMode: false,
    ...urls,
  });
  expect(manifest.display_information.name).toHaveLength(35);
  expect(manifest.display_information.description).toHaveLength(140);
  // assistant:write is refused in a manifest without this feature.
  expect(manifest.features.assistant_view.assistant_description).toHaveLength(140);
});

test("docs/integrations.md lists every scope with the reason the doctor gives", () => {
  const docs = fs.readFileSync(path.join(import.meta.dirname, "../../../docs/integrations.md"), "utf8");
  const rows = [...docs.matchAll(/^\| `([a-z_.]+:[a-z_.]+)` \| (.+) \|$/gm)].map(([, scope, why]) => ({
    scope,
    why: why!.replaceAll("`", ""),
  }));
  expect(rows).toEqual(slackBotScopes.map(({ scope, why }) => ({ scope, why })));
});
