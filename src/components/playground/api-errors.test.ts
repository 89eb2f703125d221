import { describe, expect, it } from "vitest";
import { apiErrorMessage } from "./api-errors";

describe("apiErrorMessage", () => {
  it("says what happened and what to do for a missing credential", () => {
    expect(apiErrorMessage(401, "unauthorized", "missing bearer token")).toBe(
      "missing bearer token. Sign in, or paste a token in the token field.",
    );
  });

  it("falls back to the status when the body had no message, and to a retry hint for 5xx", () => {
    expect(apiErrorMessage(502, "internal_error", undefined)).toBe(
      "The server answered 502 (internal_error). Try again; if it keeps failing, check the server log.",
    );
  });

  it("leaves an unknown code's message as the server wrote it", () => {
    expect(apiErrorMessage(400, "invalid_input", "message: required")).toBe("message: required");
  });
});
