import { describe, expect, it } from "vitest";
import { hostedOnlyWarnings, modelProblems } from "./agent-checks";

const routing = { defaultModel: "local:scripted", aliases: { "grok-4.5": "xai:grok-4" } };

describe("modelProblems", () => {
  it("is an error for an id no turn could run on, and notes for what runs otherwise", () => {
    expect(modelProblems("acme:large", routing).error).toMatch(/unknown provider "acme"/);
    expect(modelProblems("grok-4.5", routing)).toEqual({ notes: [] });
    expect(modelProblems("grok-9", routing).notes).toEqual([
      expect.stringMatching(
        /^model "grok-9" is not a provider:model id .* turns run on the default model local:scripted/,
      ),
    ]);
    expect(modelProblems(undefined, routing)).toEqual({ notes: [] });
  });
});

describe("hostedOnlyWarnings", () => {
  it("names each of Cursor's hosting fields, and nothing for an agent without them", () => {
    expect(hostedOnlyWarnings({ persistent: false, runtime: "local" })).toEqual([]);
    const hosted = { local: {}, persistent: true, hosting: { image: "node:20" }, cloud: {}, runtime: "cloud" };
    expect(hostedOnlyWarnings(hosted)).toEqual([
      "defineAgent(): local is ignored on Agentfold: it sets up Cursor's local harness; each session here has its own workspace",
      "defineAgent(): persistent is ignored on Agentfold: sandboxes here start on demand and stop after 5 idle minutes",
      "defineAgent(): hosting.image is ignored on Agentfold: agent code runs in the platform's sandbox, not in a container image",
      "defineAgent(): cloud is ignored on Agentfold: there is no Cursor cloud to bind to",
      'defineAgent(): runtime "cloud" runs on this instance\'s own workers here (there is no Cursor cloud to bind to)',
    ]);
  });
});
