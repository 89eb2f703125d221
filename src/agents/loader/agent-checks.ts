// What validation says of defineAgent's own fields (docs/compatibility.md, "Options"): the model
// as this instance runs it, and the fields of Cursor's hosting that do nothing here.
import { chooseModel, modelSetting, type ModelRouting } from "@/agents/runtime/models/model-choice";
import { modelIdProblem } from "@/agents/runtime/models/resolve-model";

type Summary = Record<string, unknown>;

/**
 * A `provider:model` id no turn could run on (an unknown provider, `local:x`) is an error. What the
 * turn runs on instead of what was written (a Cursor id without an alias, params the provider does
 * not take) is a note each, as the turn decides it (model-choice.ts).
 */
export function modelProblems(model: unknown, routing: ModelRouting): { error?: string; notes: string[] } {
  const setting = modelSetting(model);
  if (!setting) return { notes: [] };
  const error = setting.id.includes(":") ? modelIdProblem(setting.id) : undefined;
  return error ? { error, notes: [] } : { notes: chooseModel(model, routing).notes };
}

/** defineAgent fields that set up Cursor's hosting or local harness: accepted, and said so. */
export function hostedOnlyWarnings(agent: Summary | undefined): string[] {
  const ignored = (field: string, why: string) => `defineAgent(): ${field} is ignored on Agentfold: ${why}`;
  const warnings: string[] = [];
  if (agent?.architecture !== undefined)
    warnings.push(ignored("architecture", "it picks Cursor's hosted agent loop; turns here run on the platform's own"));
  if (agent?.local !== undefined)
    warnings.push(ignored("local", "it sets up Cursor's local harness; each session here has its own workspace"));
  if (agent?.persistent === true)
    warnings.push(ignored("persistent", "sandboxes here start on demand and stop after 5 idle minutes"));
  if ((agent?.hosting as Summary | undefined)?.image !== undefined)
    warnings.push(ignored("hosting.image", "agent code runs in the platform's sandbox, not in a container image"));
  if (agent?.cloud !== undefined) warnings.push(ignored("cloud", "there is no Cursor cloud to bind to"));
  if (agent?.runtime === "cloud")
    warnings.push(
      'defineAgent(): runtime "cloud" runs on this instance\'s own workers here (there is no Cursor cloud to bind to)',
    );
  return warnings;
}
