import { describe, expect, it } from "vitest";
import { defineAgent, defineInstructions } from "./agent";
import { descriptorKindOf } from "./descriptor";
import { definitionMessages } from "./test-support";

describe("defineAgent", () => {
  it("accepts an empty config with defaults", () => {
    const agent = defineAgent();
    expect(descriptorKindOf(agent)).toBe("agent");
    expect(agent).toMatchObject({ runtime: "local", persistent: false });
  });

  it("accepts the documented fields and adds mcp to a tools allowlist", () => {
    const agent = defineAgent({
      model: {
        id: "openai:gpt-4o",
        params: [
          { id: "effort", value: "high" },
          { id: "fast", value: true },
        ],
      },
      name: "Triage",
      description: "Routes tickets",
      local: { cwd: "/tmp/clean", sandbox: true },
      hosting: { egressDomains: ["api.linear.app", "*.slack.com"], secretNames: ["LINEAR_TOKEN"] },
      concurrency: { maxRunningTurns: 2 },
      tools: ["read", "grep"],
      runtime: "cloud",
      cloud: { region: "eu" },
    });
    expect(agent.tools).toEqual(["read", "grep", "mcp"]);
    expect(defineAgent({ tools: ["mcp", "read"] }).tools).toEqual(["mcp", "read"]);
    expect(defineAgent({ model: "anthropic:claude-sonnet-4-5" }).model).toBe("anthropic:claude-sonnet-4-5");
  });

  it("refuses a parameter baked into the model id, saying how to write it", () => {
    expect(definitionMessages(() => defineAgent({ model: "grok-4.5-fast" }))).toEqual([
      'defineAgent: model: "grok-4.5-fast" puts a parameter in the model id; use { id: "grok-4.5", params: [{ id: "fast", value: true }] }',
    ]);
    expect(definitionMessages(() => defineAgent({ model: { id: "openai:o3-high" } }))).toEqual([
      'defineAgent: model.id: "openai:o3-high" puts a parameter in the model id; use { id: "openai:o3", params: [{ id: "high", value: true }] }',
    ]);
    expect(defineAgent({ model: "openai:gpt-4o-mini" }).model).toBe("openai:gpt-4o-mini");
  });

  it('refuses runtime "grokbot" and other unknown runtimes', () => {
    expect(definitionMessages(() => defineAgent({ runtime: "grokbot" } as never))).toEqual([
      'defineAgent: runtime: runtime "grokbot" is private to Cursor and not supported; use "local"',
    ]);
    expect(definitionMessages(() => defineAgent({ runtime: "lambda" } as never))).toEqual([
      'defineAgent: runtime: expected "local" or "cloud"',
    ]);
  });

  it("refuses mistyped fields", () => {
    expect(
      definitionMessages(() =>
        defineAgent({
          model: 5,
          persistent: "yes",
          concurrency: { maxRunningTurns: 0 },
          hosting: { egressDomains: ["https://x.com"], secretNames: ["MY-SECRET"] },
          tools: [""],
          modle: "x",
        } as never),
      ),
    ).toEqual([
      "defineAgent: model: expected a model id or { id, params }",
      "defineAgent: persistent: expected boolean, got string",
      "defineAgent: hosting.egressDomains[0]: expected a host name",
      "defineAgent: hosting.secretNames[0]: expected an env variable name",
      "defineAgent: concurrency.maxRunningTurns: must be a positive integer",
      "defineAgent: tools[0]: must not be empty",
      "defineAgent: modle: unknown field",
    ]);
    expect(
      definitionMessages(() => defineAgent({ model: { id: "x", params: [{ id: "p", value: {} }] } } as never)),
    ).toEqual(["defineAgent: model.params[0].value: expected a string, number or boolean"]);
  });
});

describe("defineInstructions", () => {
  it("accepts markdown and refuses an empty one", () => {
    const instructions = defineInstructions({ markdown: "You triage tickets." });
    expect(descriptorKindOf(instructions)).toBe("instructions");
    expect(instructions.markdown).toBe("You triage tickets.");
    expect(definitionMessages(() => defineInstructions({ markdown: "" }))).toEqual([
      "defineInstructions: markdown: must not be empty",
    ]);
    expect(definitionMessages(() => defineInstructions("text" as never))).toEqual([
      "defineInstructions: expected a config object, got string",
    ]);
  });
});
