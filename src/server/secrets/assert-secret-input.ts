// Checks a name (and a value) against the rules every surface shares; invalid_input otherwise.
import { z } from "zod";
import { AppError } from "@/server/errors";
import { secretNameSchema, secretValueSchema } from "./schema";

export function assertSecretInput(input: { name: string; value?: string }): void {
  const schema =
    input.value === undefined
      ? z.object({ name: secretNameSchema })
      : z.object({ name: secretNameSchema, value: secretValueSchema });
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError("invalid_input", z.prettifyError(result.error));
}
