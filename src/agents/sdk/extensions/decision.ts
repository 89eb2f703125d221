// What `decide` asks for and what counts as an answer (docs/compatibility.md, "decide"): shared by
// the sandbox, which checks a request before it crosses, and the platform, which asks the model
// and checks its answer. Not a subpath of the package: folders import `decide` from
// `/extensions/jev`.
import { z } from "zod";

/** Where the sandbox puts decide's host call (Symbol.for: every copy of this module agrees). */
export const decideHostKey = Symbol.for("agentfold.decide");

/** Past this, a question or its context is refused rather than sent to the model. */
export const maxQuestionChars = 10_000;
export const maxContextChars = 100_000;
export const maxChoices = 100;

const base = {
  question: z.string().trim().min(1, "give a question").max(maxQuestionChars),
  context: z.json().optional(),
};

const choicesSchema = z
  .array(z.string().min(1, "a choice is a non-empty string"))
  .min(2, "give at least two choices")
  .max(maxChoices)
  .refine((choices) => new Set(choices).size === choices.length, "choices must differ");

const scoreSchema = z
  .object({ min: z.number().finite(), max: z.number().finite() })
  .refine((range) => range.min < range.max, "score.min must be below score.max");

export const decisionRequestSchema = z
  .union([
    z.strictObject({ ...base, choices: choicesSchema }),
    z.strictObject({ ...base, score: scoreSchema }),
    z.strictObject({ ...base, boolean: z.literal(true) }),
  ])
  .refine((request) => request.context === undefined || contextText(request.context).length <= maxContextChars, {
    message: `context is too large: at most ${maxContextChars} characters as JSON`,
    path: ["context"],
  });

export type DecisionRequest = z.infer<typeof decisionRequestSchema>;

/** What a request is missing, in one sentence; undefined when it is a valid request. */
export function decisionRequestProblem(request: unknown): string | undefined {
  if (typeof request === "object" && request !== null) {
    const kinds = ["choices", "score", "boolean"].filter((kind) => kind in request);
    if (kinds.length !== 1)
      return `give exactly one of choices: [...], score: { min, max } or boolean: true${kinds.length > 1 ? ` (got ${kinds.join(" and ")})` : ""}`;
  }
  const parsed = decisionRequestSchema.safeParse(request);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join(".") || "request"}: ${issue?.message}`;
}

export function contextText(context: unknown): string {
  return typeof context === "string" ? context : JSON.stringify(context, null, 2);
}

/** The JSON Schema of the model's answer: one object `{ answer }`, the requested type inside. */
export function answerJsonSchema(request: DecisionRequest): Record<string, unknown> {
  const answer =
    "choices" in request
      ? { type: "string", enum: request.choices }
      : "score" in request
        ? { type: "number", minimum: request.score.min, maximum: request.score.max }
        : { type: "boolean" };
  return { type: "object", properties: { answer }, required: ["answer"], additionalProperties: false };
}

/** What the answer must be, in words: for the prompt and for the error when it is not. */
export function answerShape(request: DecisionRequest): string {
  if ("choices" in request) return `one of: ${request.choices.map((choice) => JSON.stringify(choice)).join(", ")}`;
  if ("score" in request) return `a number from ${request.score.min} to ${request.score.max}`;
  return "true or false";
}

/** The decided value, or a sentence saying why the answer does not fit the request. */
export function checkAnswer(
  request: DecisionRequest,
  answer: unknown,
): { ok: true; value: string | number | boolean } | { ok: false; problem: string } {
  const value =
    typeof answer === "object" && answer !== null && "answer" in answer
      ? (answer as { answer: unknown }).answer
      : answer;
  const fits =
    "choices" in request
      ? typeof value === "string" && request.choices.includes(value)
      : "score" in request
        ? typeof value === "number" &&
          Number.isFinite(value) &&
          value >= request.score.min &&
          value <= request.score.max
        : typeof value === "boolean";
  if (fits) return { ok: true, value: value as string | number | boolean };
  const shown = value === undefined ? "nothing" : JSON.stringify(value);
  return { ok: false, problem: `answered ${shown}, which is not ${answerShape(request)}` };
}
