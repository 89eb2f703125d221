import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "../descriptor";
import { definitionMessages } from "../test-support";
import { defaultSlackAuth, slackChannel, slackEnvNames } from "./slack";

describe("slackChannel", () => {
  it("defaults to one complete reply and no approval buttons", () => {
    const channel = slackChannel();
    expect(descriptorKindOf(channel)).toBe("channel");
    expect(channel).toMatchObject({ pack: "slack", reply: { mode: "post" }, toolApprovals: false });
  });

  it("keeps the documented options", () => {
    const channel = slackChannel({
      envPrefix: "TRIAGE",
      reply: { mode: "stream", status: { reasoning: true, tools: true, idle: ["Still on it…"] } },
      continuation: "slack.dmthread/v2",
      toolApprovals: true,
    });
    expect(channel).toMatchObject({
      envPrefix: "TRIAGE",
      reply: { mode: "stream", status: { reasoning: true, tools: true, idle: ["Still on it…"] } },
      continuation: "slack.dmthread/v2",
      toolApprovals: true,
    });
  });

  it("refuses bad options", () => {
    expect(
      definitionMessages(() =>
        slackChannel({
          envPrefix: "triage_",
          reply: { mode: "shout" },
          continuation: "thread",
          toolApprovals: "yes",
        } as never),
      ),
    ).toEqual([
      'slackChannel: envPrefix: must be an upper-case env name prefix like "TRIAGE"',
      'slackChannel: reply.mode: expected "post", "stream" or "agent"',
      'slackChannel: continuation: expected "slack.dmthread/v2"',
      "slackChannel: toolApprovals: expected boolean, got string",
    ]);
  });
});

describe("slackEnvNames", () => {
  it("prefixes the token variables when an envPrefix is set", () => {
    expect(slackEnvNames({ envPrefix: "TRIAGE" })).toEqual({
      botToken: "TRIAGE_SLACK_BOT_TOKEN",
      signingSecret: "TRIAGE_SLACK_SIGNING_SECRET",
      appToken: "TRIAGE_SLACK_APP_TOKEN",
    });
    expect(slackEnvNames({})).toEqual({
      botToken: "SLACK_BOT_TOKEN",
      signingSecret: "SLACK_SIGNING_SECRET",
      appToken: "SLACK_APP_TOKEN",
    });
  });
});

describe("defaultSlackAuth", () => {
  it("is the Slack user the platform's Slack pack runs a thread as, from either shape of context", () => {
    const principal = { kind: "user", id: "slack:T1:U9", attributes: { user_id: "U9", team_id: "T1" } };
    expect(defaultSlackAuth({ teamId: "T1", userId: "U9" })).toEqual(principal);
    expect(defaultSlackAuth({ user: { id: "U9", team_id: "T1" } })).toEqual(principal);
    expect(defaultSlackAuth({ user: "U9", team: { id: "T1" } })).toEqual(principal);
    expect(() => defaultSlackAuth({ user: "U9" })).toThrow(/no Slack user and team/);
  });
});
