import { describe, expect, it } from "vitest";
import { packSecretNames } from "./pack-secret-names";

const channel = (name: string, config: object) => ({ name, file: `bot/channels/${name}.ts`, routes: [], config });

describe("the secrets a version's packs read", () => {
  it("names Slack's per prefix and GitHub's, once each; custom channels read none", () => {
    const manifest = {
      channels: [
        channel("slack", { pack: "slack", envPrefix: "DESK" }),
        channel("triage", { pack: "slack" }),
        channel("github", { pack: "github" }),
        channel("webhook", { pack: "custom" }),
      ],
    };
    expect(packSecretNames(manifest)).toEqual([
      "DESK_SLACK_APP_TOKEN",
      "DESK_SLACK_BOT_TOKEN",
      "DESK_SLACK_SIGNING_SECRET",
      "GITHUB_APP_ID",
      "GITHUB_PRIVATE_KEY",
      "GITHUB_TOKEN",
      "GITHUB_WEBHOOK_SECRET",
      "SLACK_APP_TOKEN",
      "SLACK_BOT_TOKEN",
      "SLACK_SIGNING_SECRET",
    ]);
    expect(packSecretNames(null)).toEqual([]);
  });
});
