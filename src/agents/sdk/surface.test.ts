// The import surface agent folders rely on (`agentfold/<subpath>`, also under @cursor/july and
// @cursor/bdk): each subpath is a module here that exports these runtime values.
import { describe, expect, it } from "vitest";
import { sdkSubpaths } from "@/agents/bundle/aliases";

type Loader = () => Promise<Record<string, unknown>>;

// Static imports, one per subpath, so a missing module fails here rather than in a bundle.
const surface: [string, Loader, string[]][] = [
  [
    "index",
    () => import("./index"),
    [
      "defineAgent",
      "defineInstructions",
      "prompt",
      "DefinitionError",
      "descriptorKind",
      "descriptorKindOf",
      "defineTool",
      "defineHook",
      "defineSchedule",
      "defineSkill",
      "defineEval",
      "defineEvalConfig",
      "defineConnection",
      "defineArtifacts",
      "defineResult",
      "defineChannel",
    ],
  ],
  [
    "tools",
    () => import("./tools"),
    ["defineTool", "toolJsonSchemas", "parseToolInput", "ToolInputError", "toolResultEnvelope"],
  ],
  ["hooks", () => import("./hooks"), ["defineHook"]],
  [
    "channels",
    () => import("./channels"),
    [
      "defineChannel",
      "GET",
      "POST",
      "PUT",
      "PATCH",
      "DELETE",
      "localDevStrict",
      "bearerAuth",
      "allowAll",
      "buildToolApprovalEvents",
    ],
  ],
  [
    "channels/slack",
    () => import("./channels/slack"),
    ["defaultSlackAuth", "slackChannel", "slackEnvNames", "buildToolApprovalEvents"],
  ],
  [
    "channels/github",
    () => import("./channels/github"),
    ["githubChannel", "defaultGitHubAuth", "parseGitHubPrContinuationKey", "githubPrContinuationKey"],
  ],
  ["schedules", () => import("./schedules"), ["defineSchedule", "cronProblem", "nextCronRun"]],
  ["skills", () => import("./skills"), ["defineSkill"]],
  [
    "evals",
    () => import("./evals"),
    ["defineEval", "defineEvalConfig", "includes", "matches", "satisfies", "trajectoryChecks"],
  ],
  ["artifacts", () => import("./artifacts"), ["defineArtifacts", "resolveArtifactTag"]],
  ["connections", () => import("./connections"), ["defineConnection", "envTemplateNames", "resolveEnvTemplate"]],
  ["result", () => import("./result"), ["defineResult", "checkResultText", "ResultRejection"]],
  ["memory", () => import("./memory"), ["memoryHook", "memoryJournalEntry"]],
  ["prompt", () => import("./prompt"), ["prompt"]],
  ["extensions/jev", () => import("./extensions/jev"), ["decide"]],
];

describe("package surface", () => {
  // The platform's own modules (events.ts, host.ts …) are not subpaths: Cursor's packages have none
  // of those names, and the event types are exported from the root.
  it("lists exactly the subpaths a folder can import", () => {
    expect(surface.map(([subpath]) => subpath).filter((subpath) => subpath !== "index")).toEqual([...sdkSubpaths]);
  });

  it.each(surface)("%s exports its helpers", async (subpath, load, names) => {
    const module = await load();
    for (const name of names) expect(module[name], `${subpath}.${name}`).toBeDefined();
  });

  it("exports the same defineTool from the root and from /tools", async () => {
    const [root, tools] = await Promise.all([import("./index"), import("./tools")]);
    expect(root.defineTool).toBe(tools.defineTool);
  });

  it("exports the same prompt from the root and from /prompt", async () => {
    const [root, promptModule] = await Promise.all([import("./index"), import("./prompt")]);
    expect(root.prompt).toBe(promptModule.prompt);
  });
});
