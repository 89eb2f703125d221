// Input agent code hands the platform (host calls), checked: the first problem as one AppError
// message, `what: path: message`, which is what the agent's code sees thrown.
import type { z } from "zod";
import { AppError } from "@/server/errors";

export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new AppError("invalid_input", `${what}: ${issue?.path.join(".") || "input"}: ${issue?.message}`);
}
