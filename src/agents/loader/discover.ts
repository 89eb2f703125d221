// Finds every capability of an agent folder by path (the map at the top of docs/agent-folders.md)
// and reports the problems that need no code to see (its "Validating"): all of them at once, each
// with its file.
import { Diagnostics } from "./diagnostics";
import { firstLine, parseFrontmatter } from "./frontmatter";
import type { AgentLayout, InstructionsRef, SkillRef, SubagentRef } from "./layout";
import { nameProblem } from "./names";
import type { AgentSource } from "./source";
import { cronProblem } from "@/agents/sdk/cron";

const moduleExtension = /\.(ts|mts|js|mjs)$/;
const capabilityDirs = [
  "tools",
  "skills",
  "mcp-connections",
  "connections",
  "host-connections",
  "channels",
  "schedules",
  "hooks",
  "sandbox",
  "subagents",
];
const knownRootEntries = new Set([
  ...capabilityDirs,
  "agent.ts",
  "instructions.md",
  "instructions.ts",
  "instructions",
  "extensions",
  "artifacts.ts",
  "result.ts",
  "playground",
  "lib",
]);

type Context = { source: AgentSource; files: string[]; diagnostics: Diagnostics; root: string };

const stem = (file: string) => file.replace(/\.[^./]+$/, "");
const under = (files: string[], dir: string) =>
  files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1));
const text = async (ctx: Context, file: string) => (await ctx.source.read(file)).toString("utf8");

export async function discoverAgent(
  source: AgentSource,
  folderName: string,
): Promise<{ layout?: AgentLayout; diagnostics: Diagnostics }> {
  const diagnostics = new Diagnostics();
  const all = await source.list();
  const root = all.some((f) => f.startsWith("bot/"))
    ? "bot"
    : all.some((f) => f.startsWith("agent/"))
      ? "agent"
      : undefined;
  if (!root) {
    diagnostics.error(undefined, "no agent folder: expected a bot/ (or legacy agent/) directory");
    return { diagnostics };
  }
  if (root === "bot" && all.some((f) => f.startsWith("agent/"))) {
    diagnostics.warning("agent/", "both bot/ and agent/ exist; agent/ is ignored");
  }
  const ctx: Context = { source, files: under(all, root), diagnostics, root };
  const at = (relative: string) => `${root}/${relative}`;
  const layout: AgentLayout = {
    root,
    name: await agentName(source, all, folderName, diagnostics),
    agentFile: ctx.files.includes("agent.ts") ? at("agent.ts") : undefined,
    instructions: findInstructions(ctx, "", at),
    tools: modulesIn(ctx, "tools", "tool", at),
    skills: await findSkills(ctx, at),
    subagents: await findSubagents(ctx, at),
    hooks: findHooks(ctx, at),
    channels: modulesIn(ctx, "channels", "channel", at),
    schedules: await findSchedules(ctx, at),
    connections: [
      ...modulesIn(ctx, "mcp-connections", "connection", at).map((m) => ({
        ...m,
        scope: "mcp" as const,
        isLegacyPath: false,
      })),
      ...modulesIn(ctx, "connections", "connection", at).map((m) => ({
        ...m,
        scope: "mcp" as const,
        isLegacyPath: true,
      })),
      ...modulesIn(ctx, "host-connections", "connection", at).map((m) => ({
        ...m,
        scope: "host" as const,
        isLegacyPath: false,
      })),
    ],
    extensions: modulesIn(ctx, "extensions", "extension", at),
    artifactsFile: ctx.files.includes("artifacts.ts") ? at("artifacts.ts") : undefined,
    resultFile: ctx.files.includes("result.ts") ? at("result.ts") : undefined,
    seedFiles: under(ctx.files, "sandbox/workspace"),
    chips: findChips(ctx, at),
    evals: findEvals(all, diagnostics),
    evalConfigFile: all.find((f) => /^evals\/evals\.config\.(ts|mts|js|mjs)$/.test(f)),
  };
  if (!layout.instructions)
    diagnostics.error(undefined, `the root agent has no instructions: add ${root}/instructions.md`);
  checkDuplicates(layout, diagnostics);
  for (const entry of new Set(ctx.files.map((f) => f.split("/")[0]!))) {
    if (!knownRootEntries.has(entry) && !/^readme\.md$/i.test(entry)) {
      diagnostics.warning(at(entry), "not an agent capability path (docs/agent-folders.md lists them); ignored");
    }
  }
  return { layout, diagnostics };
}

async function agentName(
  source: AgentSource,
  all: string[],
  folderName: string,
  diagnostics: Diagnostics,
): Promise<string> {
  if (!all.includes("package.json")) return folderName;
  try {
    const pkg = JSON.parse((await source.read("package.json")).toString("utf8")) as { name?: unknown };
    return typeof pkg.name === "string" && pkg.name ? pkg.name : folderName;
  } catch {
    diagnostics.error("package.json", "is not valid JSON");
    return folderName;
  }
}

function findInstructions(ctx: Context, prefix: string, at: (f: string) => string): InstructionsRef | undefined {
  const forms: InstructionsRef[] = [];
  if (ctx.files.includes(`${prefix}instructions.md`))
    forms.push({ form: "markdown", files: [at(`${prefix}instructions.md`)] });
  if (ctx.files.includes(`${prefix}instructions.ts`))
    forms.push({ form: "module", files: [at(`${prefix}instructions.ts`)] });
  const parts = under(ctx.files, `${prefix}instructions`)
    .filter((f) => !f.includes("/") && f.endsWith(".md"))
    .sort();
  if (parts.length > 0) forms.push({ form: "directory", files: parts.map((f) => at(`${prefix}instructions/${f}`)) });
  if (forms.length > 1) {
    ctx.diagnostics.error(
      at(`${prefix}instructions`),
      "instructions are given in more than one form (instructions.md, instructions.ts, instructions/); keep one",
    );
  }
  return forms[0];
}

function modulesIn(ctx: Context, dir: string, kind: string, at: (f: string) => string) {
  const refs: { name: string; file: string }[] = [];
  for (const file of under(ctx.files, dir)) {
    if (file.includes("/") || !moduleExtension.test(file)) {
      ctx.diagnostics.warning(at(`${dir}/${file}`), `not a ${kind} module (expected ${dir}/<name>.ts); ignored`);
      continue;
    }
    const name = stem(file);
    const problem = nameProblem(kind, name);
    if (problem) ctx.diagnostics.error(at(`${dir}/${file}`), problem);
    else refs.push({ name, file: at(`${dir}/${file}`) });
  }
  return refs;
}

function findHooks(ctx: Context, at: (f: string) => string) {
  return under(ctx.files, "hooks")
    .filter((file) => moduleExtension.test(file))
    .flatMap((file) => {
      const name = stem(file);
      if (name.includes("__")) {
        ctx.diagnostics.error(
          at(`hooks/${file}`),
          `hook name '${name}' must not contain '__' (reserved for extensions)`,
        );
        return [];
      }
      return [{ name, file: at(`hooks/${file}`) }];
    });
}

async function findSkills(ctx: Context, at: (f: string) => string): Promise<SkillRef[]> {
  const skills: SkillRef[] = [];
  const files = under(ctx.files, "skills");
  for (const file of files.filter((f) => !f.includes("/"))) {
    const name = stem(file);
    if (file.endsWith(".md")) {
      const { data, body } = await readMarkdown(ctx, at(`skills/${file}`));
      const description = typeof data.description === "string" ? data.description : firstLine(body);
      skills.push({ name, form: "markdown", file: at(`skills/${file}`), description });
    } else if (moduleExtension.test(file)) {
      skills.push({ name, form: "generated", file: at(`skills/${file}`) });
    } else {
      ctx.diagnostics.warning(at(`skills/${file}`), "not a skill (expected .md, .ts or <name>/SKILL.md); ignored");
    }
  }
  const packaged = new Set(files.filter((f) => f.includes("/")).map((f) => f.split("/")[0]!));
  for (const name of packaged) {
    const file = at(`skills/${name}/SKILL.md`);
    if (!files.includes(`${name}/SKILL.md`)) {
      ctx.diagnostics.error(at(`skills/${name}/`), `packaged skill '${name}' has no SKILL.md`);
      continue;
    }
    const { data } = await readMarkdown(ctx, file);
    const description = typeof data.description === "string" && data.description.trim() ? data.description : undefined;
    if (!description) ctx.diagnostics.error(file, "a packaged skill needs a `description` in its frontmatter");
    const siblings = files
      .filter((f) => f.startsWith(`${name}/`) && f !== `${name}/SKILL.md`)
      .map((f) => f.slice(name.length + 1));
    skills.push({ name, form: "packaged", file, description, files: siblings });
  }
  return skills;
}

async function readMarkdown(ctx: Context, file: string) {
  try {
    return parseFrontmatter(await text(ctx, file));
  } catch (error) {
    ctx.diagnostics.error(file, `invalid frontmatter: ${(error as Error).message}`);
    return { data: {} as Record<string, unknown>, body: "" };
  }
}

async function findSchedules(ctx: Context, at: (f: string) => string) {
  const schedules: AgentLayout["schedules"] = [];
  for (const ref of modulesOrMarkdown(ctx, "schedules", at)) {
    if (!ref.file.endsWith(".md")) {
      schedules.push({ name: ref.name, form: "module", file: ref.file });
      continue;
    }
    const { data, body } = await readMarkdown(ctx, ref.file);
    const cron = typeof data.cron === "string" ? data.cron : undefined;
    if (!cron) ctx.diagnostics.error(ref.file, "a markdown schedule needs `cron` in its frontmatter");
    // The same check as defineSchedule's: what validates is what the scheduler can fire.
    const problem = cron === undefined ? undefined : cronProblem(cron);
    if (problem) ctx.diagnostics.error(ref.file, `cron "${cron}": ${problem}`);
    if (!body.trim()) ctx.diagnostics.error(ref.file, "a markdown schedule needs a prompt in its body");
    schedules.push({ name: ref.name, form: "markdown", file: ref.file, cron, prompt: body.trim() });
  }
  return schedules;
}

function modulesOrMarkdown(ctx: Context, dir: string, at: (f: string) => string) {
  return under(ctx.files, dir).flatMap((file) => {
    if (file.includes("/") || !(moduleExtension.test(file) || file.endsWith(".md"))) {
      ctx.diagnostics.warning(at(`${dir}/${file}`), `not a schedule (expected ${dir}/<name>.md or .ts); ignored`);
      return [];
    }
    const problem = nameProblem("schedule", stem(file));
    if (problem) {
      ctx.diagnostics.error(at(`${dir}/${file}`), problem);
      return [];
    }
    return [{ name: stem(file), file: at(`${dir}/${file}`) }];
  });
}

async function findSubagents(ctx: Context, at: (f: string) => string): Promise<SubagentRef[]> {
  const ids = new Set(under(ctx.files, "subagents").map((f) => f.split("/")[0]!));
  const subagents: SubagentRef[] = [];
  for (const id of ids) {
    const problem = nameProblem("subagent", id);
    if (problem) {
      ctx.diagnostics.error(at(`subagents/${id}/`), problem);
      continue;
    }
    const inner = under(ctx.files, `subagents/${id}`);
    for (const dir of new Set(inner.filter((f) => f.includes("/")).map((f) => f.split("/")[0]!))) {
      if (capabilityDirs.includes(dir)) {
        ctx.diagnostics.warning(at(`subagents/${id}/${dir}/`), "subagents cannot have capability directories; ignored");
      }
    }
    const scoped: Context = { ...ctx, files: inner };
    subagents.push({
      id,
      dir: at(`subagents/${id}`),
      agentFile: inner.includes("agent.ts") ? at(`subagents/${id}/agent.ts`) : undefined,
      instructions: findInstructions(scoped, "", (f) => at(`subagents/${id}/${f}`)),
    });
  }
  return subagents;
}

function findChips(ctx: Context, at: (f: string) => string) {
  return under(ctx.files, "playground/tools")
    .filter((f) => !f.includes("/") && f.endsWith(".tsx"))
    .map((f) => ({ tool: stem(f), file: at(`playground/tools/${f}`) }));
}

function findEvals(all: string[], diagnostics: Diagnostics) {
  return all
    .filter((f) => f.startsWith("evals/") && /\.eval\.(ts|js)$/.test(f))
    .map((file) => {
      const id = file
        .slice("evals/".length)
        .replace(/\.eval\.(ts|js)$/, "")
        .replace(/(^|\/)index$/, "");
      if (!id) diagnostics.error(file, "evals/index.eval.ts has no directory to take its id from; rename it");
      return { id, file };
    })
    .filter((e) => e.id);
}

function checkDuplicates(layout: AgentLayout, diagnostics: Diagnostics): void {
  const groups: [string, { name: string; file: string }[]][] = [
    ["skill", layout.skills],
    ["schedule", layout.schedules],
    ["connection", layout.connections],
    ["eval", layout.evals.map((e) => ({ name: e.id, file: e.file }))],
  ];
  for (const [kind, refs] of groups) {
    const seen = new Map<string, string>();
    for (const ref of refs) {
      const first = seen.get(ref.name);
      if (first) diagnostics.error(ref.file, `${kind} '${ref.name}' is also defined by ${first}`);
      else seen.set(ref.name, ref.file);
    }
  }
  const tools = new Set(layout.tools.map((t) => t.name));
  for (const chip of layout.chips) {
    if (!tools.has(chip.tool)) diagnostics.warning(chip.file, `no tool named '${chip.tool}' for this playground chip`);
  }
}
