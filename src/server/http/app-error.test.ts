import { describe, expect, it } from "vitest";
import { AppError, errorStatus, toAppError } from "./app-error";

describe("AppError", () => {
  it("takes its status from the code", () => {
    expect(new AppError("not_found").status).toBe(404);
    expect(new AppError("session_busy").status).toBe(409);
    expect(new AppError("unavailable").status).toBe(503);
  });

  it("serialises to the wire format, leaving out a message that only repeats the code", () => {
    expect(new AppError("forbidden").toBody()).toEqual({ ok: false, error: "forbidden" });
    expect(new AppError("forbidden", "Not your session.").toBody()).toEqual({
      ok: false,
      error: "forbidden",
      message: "Not your session.",
    });
  });

  it("turns unknown errors into internal_error without their text", () => {
    const mapped = toAppError(new TypeError("secret detail"));
    expect(mapped.code).toBe("internal_error");
    expect(mapped.message).not.toContain("secret");
  });

  it("maps every code to a 4xx or 5xx status", () => {
    for (const status of Object.values(errorStatus)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
