import { describe, expect, it } from "vitest";
import { defineCommand, describeCommand, findCommand, parseCommandLine, usageLine } from "./command";
import { UsageError } from "./usage-error";

const ran: unknown[] = [];
const set = defineCommand({
  name: "secret set",
  group: "integrations",
  summary: "Set a secret",
  args: [
    { name: "agent", required: true, description: "The agent" },
    { name: "name", required: true, description: "The name" },
  ],
  flags: {
    team: { type: "string", value: "<slug>", description: "The team" },
    json: { type: "boolean", description: "JSON" },
    tag: { type: "string", multiple: true, description: "A tag" },
  },
  examples: ["agentfold secret set a B"],
  run: async (input) => (ran.push(input), 0),
});
const secret = defineCommand({
  name: "secret",
  group: "integrations",
  summary: "x",
  flags: {},
  examples: [],
  run: async () => 0,
});

describe("commands as data", () => {
  it("finds the longest run of leading words that names a command", () => {
    expect(findCommand([secret, set], ["secret", "set", "weather", "KEY", "--team", "t"])).toEqual({
      command: set,
      rest: ["weather", "KEY", "--team", "t"],
    });
    expect(findCommand([secret, set], ["secret", "--json"])?.command).toBe(secret);
    expect(findCommand([set], ["secret", "get"])).toBeUndefined();
  });

  it("fills in defaults and refuses what the spec does not allow", () => {
    expect(parseCommandLine(set, ["w", "K"])).toEqual({ flags: { json: false, tag: [] }, args: ["w", "K"] });
    expect(parseCommandLine(set, ["w", "K", "--tag", "a", "--tag", "b", "--json"]).flags).toEqual({
      json: true,
      tag: ["a", "b"],
    });
    expect(() => parseCommandLine(set, ["w"])).toThrow(
      new UsageError(
        "secret set needs <name>: agentfold secret set <agent> <name> [--team <slug>] [--json] [--tag <tag>…]",
      ),
    );
    expect(() => parseCommandLine(set, ["w", "K", "extra"])).toThrow(UsageError);
    expect(() => parseCommandLine(set, ["w", "K", "--nope"])).toThrow(UsageError);
    const required = defineCommand({
      name: "deploy",
      group: "remote",
      summary: "",
      flags: { dir: { type: "string", required: true, description: "" } },
      examples: [],
      run: async () => 0,
    });
    expect(() => parseCommandLine(required, [])).toThrow("deploy needs --dir <dir>");
  });

  it("describes a command for scripts", () => {
    expect(usageLine(set)).toBe("agentfold secret set <agent> <name> [--team <slug>] [--json] [--tag <tag>…]");
    expect(describeCommand(set).flags[0]).toEqual({
      name: "--team",
      type: "string",
      value: "<slug>",
      required: false,
      multiple: false,
      description: "The team",
    });
  });
});
