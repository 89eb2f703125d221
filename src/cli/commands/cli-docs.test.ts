// docs/cli.md keeps up with the commands: each has a section (its first word's, or its own) with
// an example that names it, and `help --json` describes every one.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeCommand } from "@/cli/command";
import { projectRoot } from "@/cli/start/project";
import { commands } from "./index";

const doc = fs.readFileSync(path.join(projectRoot, "docs", "cli.md"), "utf8");
const headings = new Set([...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim()));
const bootstrap = doc.slice(doc.indexOf("## Headless bootstrap"));

describe("docs/cli.md", () => {
  it.each(commands.map((c) => [c.name, c] as const))("documents %s with an example", (name, command) => {
    const first = name.split(" ")[0]!;
    const isDocumented =
      headings.has(name) ||
      headings.has(first) ||
      (command.group === "bootstrap" && bootstrap.includes(`agentfold ${name}`));
    expect(isDocumented, `docs/cli.md has no "## ${first}" section`).toBe(true);
    expect(doc).toContain(`agentfold ${name}`);
    expect(command.examples.length).toBeGreaterThan(0);
    for (const example of command.examples) expect(example).toMatch(new RegExp(`agentfold ${name}\\b`));
    expect(describeCommand(command).usage.startsWith(`agentfold ${name}`)).toBe(true);
  });
});
