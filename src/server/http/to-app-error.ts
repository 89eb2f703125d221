// Any thrown value as an AppError, for the two places that answer errors (the route helper and
// the tRPC error formatter).
import { AppError } from "@/server/errors";
import { refusedValueCode } from "./refused-value";

/** A value the database refused is invalid_input (./refused-value.ts); other unknown errors
 * become internal_error without their stack. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const refused = refusedValueCode(error);
  if (refused)
    return new AppError(
      "invalid_input",
      `a value in the request cannot be stored or compared (database code ${refused})`,
    );
  return new AppError("internal_error", "Something went wrong on our side.");
}
