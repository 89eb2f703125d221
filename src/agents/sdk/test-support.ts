// For the tests beside this package: run a define* call that must fail and return its error.
import { DefinitionError } from "./descriptor";

export function definitionErrorOf(call: () => unknown): DefinitionError {
  try {
    call();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error("expected a DefinitionError, but the call succeeded");
}

/** The error's lines, for exact comparison. */
export function definitionMessages(call: () => unknown): string[] {
  return definitionErrorOf(call).message.split("\n");
}
