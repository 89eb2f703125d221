// The result contract (docs/turns.md, "Result contract") inside the sandbox: checks the final text,
// runs `commit`, and tells the platform whether the turn is committed, must be repaired (ctx.reject
// or a schema mismatch, fed back to the model) or failed.
import { checkResultText, ResultRejection } from "@/agents/sdk/result";
import { toJsonSafe } from "./json-safe";
import type { ResultOutcome } from "./protocol";

type ResultDescriptor = {
  schema?: never;
  commit?: (text: string, ctx: unknown) => unknown;
};

export async function runResultContract(
  result: ResultDescriptor,
  params: { text: string; session: unknown },
): Promise<ResultOutcome> {
  if (params.text.trim() === "") return { outcome: "failed", message: "the reply is empty" };
  const check = checkResultText(result, params.text);
  if (!check.ok) return { outcome: "rejected", message: check.message };
  if (!result.commit) return { outcome: "committed", result: null };
  const reject = (message: string): never => {
    throw new ResultRejection(message);
  };
  try {
    const value = await result.commit(params.text, { reject, value: check.value, session: params.session });
    return { outcome: "committed", result: value === undefined ? null : (toJsonSafe(value) ?? null) };
  } catch (error) {
    if (error instanceof ResultRejection) return { outcome: "rejected", message: error.message };
    return { outcome: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}
