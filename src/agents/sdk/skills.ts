// `agentfold/skills`: defineSkill (docs/agent-folders.md, "The `define*` helpers"), for skills
// whose content is generated in code. The skill is written to `.cursor/skills/<name>/SKILL.md`,
// with `files` beside it.
import { z } from "zod";
import type { Descriptor } from "./descriptor";
import { define, nonEmptyString } from "./validation";

export type SkillConfig = {
  /** What the model sees before it loads the skill. */
  description: string;
  /** The SKILL.md body. */
  markdown: string;
  /** Sibling files by relative path, e.g. `references/api.md`. */
  files?: Record<string, string>;
};

export type SkillDescriptor = Descriptor<"skill", SkillConfig>;

/** Why a path cannot name a file inside the skill directory, or undefined when it can. */
export function skillFilePathProblem(path: string): string | undefined {
  if (path.includes("\\")) return "use forward slashes";
  if (path.startsWith("/")) return "must be relative to the skill directory";
  const segments = path.split("/");
  // The path is joined onto the workspace: ".." would write outside the skill.
  if (segments.some((part) => part === "" || part === "." || part === "..")) {
    return "must not contain empty, . or .. segments";
  }
  if (path === "SKILL.md") return "SKILL.md is the skill's markdown; put it in `markdown`";
  return undefined;
}

const skillConfigSchema = z.strictObject({
  description: nonEmptyString,
  markdown: nonEmptyString,
  files: z
    .record(z.string(), z.string())
    .superRefine((files, ctx) => {
      for (const path of Object.keys(files)) {
        const problem = skillFilePathProblem(path);
        if (problem) ctx.addIssue({ code: "custom", path: [path], message: problem });
      }
    })
    .optional(),
});

export function defineSkill(config: SkillConfig): SkillDescriptor {
  return define("skill", "defineSkill", skillConfigSchema, config);
}
