import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "./descriptor";
import { defineSkill } from "./skills";
import { definitionMessages } from "./test-support";

describe("defineSkill", () => {
  it("accepts description, markdown and sibling files", () => {
    const skill = defineSkill({
      description: "Review a PR",
      markdown: "# Review\nRead the diff.",
      files: { "references/checklist.md": "- tests" },
    });
    expect(descriptorKindOf(skill)).toBe("skill");
    expect(skill.files).toEqual({ "references/checklist.md": "- tests" });
  });

  it("requires a description and a body", () => {
    expect(definitionMessages(() => defineSkill({ description: "", markdown: undefined } as never))).toEqual([
      "defineSkill: description: must not be empty",
      "defineSkill: markdown: is required",
    ]);
  });

  it("refuses file paths that leave the skill directory or clash with SKILL.md", () => {
    const files = { "../escape.md": "", "/abs.md": "", "a\\b.md": "", "SKILL.md": "", "ok/file.md": "" };
    expect(definitionMessages(() => defineSkill({ description: "d", markdown: "m", files }))).toEqual([
      'defineSkill: files["../escape.md"]: must not contain empty, . or .. segments',
      'defineSkill: files["/abs.md"]: must be relative to the skill directory',
      'defineSkill: files["a\\\\b.md"]: use forward slashes',
      'defineSkill: files["SKILL.md"]: SKILL.md is the skill\'s markdown; put it in `markdown`',
    ]);
  });
});
