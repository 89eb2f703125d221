// Every path of the folder map in docs/agent-folders.md and every static diagnostic of its
// "Validating", one fixture each.
import { describe, expect, it } from "vitest";
import { discoverAgent } from "./discover";
import { memorySource } from "./source";

const instructions = { "bot/instructions.md": "Be helpful." };

async function discover(files: Record<string, string>, folder = "my-agent") {
  const { layout, diagnostics } = await discoverAgent(memorySource(files), folder);
  return { layout: layout!, items: diagnostics.items, errors: diagnostics.items.filter((d) => d.level === "error") };
}

describe("path → capability (docs/agent-folders.md)", () => {
  it("takes the name from package.json, falling back to the folder name", async () => {
    expect((await discover({ ...instructions, "package.json": '{"name":"desk"}' })).layout.name).toBe("desk");
    expect((await discover(instructions, "folder-name")).layout.name).toBe("folder-name");
  });

  it("accepts bot/ and the legacy agent/ root", async () => {
    expect((await discover(instructions)).layout.root).toBe("bot");
    expect((await discover({ "agent/instructions.md": "x" })).layout.root).toBe("agent");
  });

  it("maps tools, connections, host connections, channels, extensions by file name", async () => {
    const { layout, errors } = await discover({
      ...instructions,
      "bot/tools/approve_pr.ts": "",
      "bot/mcp-connections/linear.ts": "",
      "bot/connections/legacy.ts": "",
      "bot/host-connections/inventory.ts": "",
      "bot/channels/drive.ts": "",
      "bot/extensions/ci.ts": "",
    });
    expect(errors).toEqual([]);
    expect(layout.tools).toEqual([{ name: "approve_pr", file: "bot/tools/approve_pr.ts" }]);
    expect(layout.connections).toEqual([
      { name: "linear", file: "bot/mcp-connections/linear.ts", scope: "mcp", isLegacyPath: false },
      { name: "legacy", file: "bot/connections/legacy.ts", scope: "mcp", isLegacyPath: true },
      { name: "inventory", file: "bot/host-connections/inventory.ts", scope: "host", isLegacyPath: false },
    ]);
    expect(layout.channels).toEqual([{ name: "drive", file: "bot/channels/drive.ts" }]);
    expect(layout.extensions).toEqual([{ name: "ci", file: "bot/extensions/ci.ts" }]);
  });

  it("finds skills in all three forms", async () => {
    const { layout, errors } = await discover({
      ...instructions,
      "bot/skills/pr-review.md": "---\ndescription: Review PRs\n---\nBody",
      "bot/skills/triage.md": "# Triage incoming tickets\nSteps…",
      "bot/skills/refunds/SKILL.md": "---\ndescription: Refund policy\n---\nPolicy",
      "bot/skills/refunds/references/policy.md": "details",
      "bot/skills/generated.ts": "",
    });
    expect(errors).toEqual([]);
    expect(layout.skills).toEqual([
      { name: "generated", form: "generated", file: "bot/skills/generated.ts" },
      { name: "pr-review", form: "markdown", file: "bot/skills/pr-review.md", description: "Review PRs" },
      { name: "triage", form: "markdown", file: "bot/skills/triage.md", description: "Triage incoming tickets" },
      {
        name: "refunds",
        form: "packaged",
        file: "bot/skills/refunds/SKILL.md",
        description: "Refund policy",
        files: ["references/policy.md"],
      },
    ]);
  });

  it("finds subagents with their agent.ts and instructions", async () => {
    const { layout } = await discover({
      ...instructions,
      "bot/subagents/reviewer/agent.ts": "",
      "bot/subagents/reviewer/instructions.md": "Review.",
    });
    expect(layout.subagents).toEqual([
      {
        id: "reviewer",
        dir: "bot/subagents/reviewer",
        agentFile: "bot/subagents/reviewer/agent.ts",
        instructions: { form: "markdown", files: ["bot/subagents/reviewer/instructions.md"] },
      },
    ]);
  });

  it("names hooks by their path without the extension", async () => {
    const { layout } = await discover({ ...instructions, "bot/hooks/audit/usage.ts": "", "bot/hooks/memory.ts": "" });
    expect(layout.hooks.map((h) => h.name)).toEqual(["audit/usage", "memory"]);
  });

  it("reads markdown schedules' cron and prompt, and lists module schedules", async () => {
    const { layout, errors } = await discover({
      ...instructions,
      "bot/schedules/daily.md": '---\ncron: "0 9 * * 1-5"\n---\nSummarise incidents.',
      "bot/schedules/sync.ts": "",
    });
    expect(errors).toEqual([]);
    expect(layout.schedules).toEqual([
      {
        name: "daily",
        form: "markdown",
        file: "bot/schedules/daily.md",
        cron: "0 9 * * 1-5",
        prompt: "Summarise incidents.",
      },
      { name: "sync", form: "module", file: "bot/schedules/sync.ts" },
    ]);
  });

  it("finds artifacts.ts, result.ts, agent.ts, seed files, chips and evals", async () => {
    const { layout } = await discover({
      ...instructions,
      "bot/agent.ts": "",
      "bot/artifacts.ts": "",
      "bot/result.ts": "",
      "bot/tools/lookup.ts": "",
      "bot/sandbox/workspace/notes/README.md": "seed",
      "bot/playground/tools/lookup.tsx": "",
      "evals/readiness.eval.ts": "",
      "evals/builds/api.eval.ts": "",
      "evals/builds/index.eval.ts": "",
      "evals/evals.config.ts": "",
    });
    expect(layout.agentFile).toBe("bot/agent.ts");
    expect(layout.artifactsFile).toBe("bot/artifacts.ts");
    expect(layout.resultFile).toBe("bot/result.ts");
    expect(layout.seedFiles).toEqual(["notes/README.md"]);
    expect(layout.chips).toEqual([{ tool: "lookup", file: "bot/playground/tools/lookup.tsx" }]);
    expect(layout.evals.map((e) => e.id).sort()).toEqual(["builds", "builds/api", "readiness"]);
    expect(layout.evalConfigFile).toBe("evals/evals.config.ts");
  });

  it("accepts instructions as markdown, a module, or a directory composed in filename order", async () => {
    expect((await discover({ "bot/instructions.ts": "" })).layout.instructions).toEqual({
      form: "module",
      files: ["bot/instructions.ts"],
    });
    const dir = await discover({ "bot/instructions/2-style.md": "b", "bot/instructions/1-role.md": "a" });
    expect(dir.layout.instructions).toEqual({
      form: "directory",
      files: ["bot/instructions/1-role.md", "bot/instructions/2-style.md"],
    });
  });
});

describe('static diagnostics (docs/agent-folders.md, "Validating")', () => {
  it("the root agent has no instructions", async () => {
    const { errors } = await discover({ "bot/tools/a.ts": "" });
    expect(errors).toEqual([
      { level: "error", message: "the root agent has no instructions: add bot/instructions.md" },
    ]);
  });

  it("no bot/ or agent/ folder at all", async () => {
    const { diagnostics } = await discoverAgent(memorySource({ "README.md": "x" }), "x");
    expect(diagnostics.items[0]?.message).toMatch(/expected a bot\/ \(or legacy agent\/\) directory/);
  });

  it("a hook name contains '__'", async () => {
    const { errors } = await discover({ ...instructions, "bot/hooks/ci__audit.ts": "" });
    expect(errors).toEqual([
      {
        level: "error",
        file: "bot/hooks/ci__audit.ts",
        message: "hook name 'ci__audit' must not contain '__' (reserved for extensions)",
      },
    ]);
  });

  it("a subagent has capability directories (warning, ignored)", async () => {
    const { items } = await discover({
      ...instructions,
      "bot/subagents/helper/instructions.md": "x",
      "bot/subagents/helper/tools/x.ts": "",
      "bot/subagents/helper/subagents/deeper/instructions.md": "x",
    });
    expect(
      items
        .filter((d) => d.level === "warning")
        .map((d) => d.file)
        .sort(),
    ).toEqual(["bot/subagents/helper/subagents/", "bot/subagents/helper/tools/"]);
  });

  it("a packaged skill has no description frontmatter", async () => {
    const { errors } = await discover({ ...instructions, "bot/skills/refunds/SKILL.md": "Just a body" });
    expect(errors).toEqual([
      {
        level: "error",
        file: "bot/skills/refunds/SKILL.md",
        message: "a packaged skill needs a `description` in its frontmatter",
      },
    ]);
  });

  it("a markdown schedule without cron or prompt", async () => {
    const { errors } = await discover({ ...instructions, "bot/schedules/empty.md": "---\ntitle: x\n---\n" });
    expect(errors.map((e) => e.message)).toEqual([
      "a markdown schedule needs `cron` in its frontmatter",
      "a markdown schedule needs a prompt in its body",
    ]);
  });

  it("malformed frontmatter, bad names, duplicates and instructions in two forms", async () => {
    const { errors } = await discover({
      "bot/instructions.md": "x",
      "bot/instructions.ts": "",
      "bot/skills/a.md": "---\n: [\n---\nx",
      "bot/skills/dup.md": "x",
      "bot/skills/dup/SKILL.md": "---\ndescription: d\n---\n",
      "bot/tools/bad name.ts": "",
    });
    const messages = errors.map((e) => `${e.file}: ${e.message}`);
    expect(messages).toContain(
      "bot/instructions: instructions are given in more than one form (instructions.md, instructions.ts, instructions/); keep one",
    );
    expect(messages.some((m) => m.startsWith("bot/skills/a.md: invalid frontmatter"))).toBe(true);
    expect(messages).toContain("bot/skills/dup/SKILL.md: skill 'dup' is also defined by bot/skills/dup.md");
    expect(messages.some((m) => m.startsWith("bot/tools/bad name.ts: tool name 'bad name'"))).toBe(true);
  });

  it("warns about files that are not capabilities and chips without a tool", async () => {
    const { items } = await discover({ ...instructions, "bot/notes.txt": "x", "bot/playground/tools/ghost.tsx": "" });
    expect(items).toEqual([
      {
        level: "warning",
        file: "bot/playground/tools/ghost.tsx",
        message: "no tool named 'ghost' for this playground chip",
      },
      {
        level: "warning",
        file: "bot/notes.txt",
        message: "not an agent capability path (docs/agent-folders.md lists them); ignored",
      },
    ]);
  });
});
