import { describe, expect, it } from "vitest";
import { AppError, errorBodySchema, errorStatus } from "./errors";

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

  it("comes back from its wire form as the same error, as the web rethrows a worker's answer", () => {
    const sent = new AppError("invalid_input", "orderId is required", { issues: [{ path: ["orderId"] }] });
    const body = errorBodySchema.parse(JSON.parse(JSON.stringify(sent.toBody())));
    const back = AppError.fromBody(body);
    expect(back).toBeInstanceOf(AppError);
    expect(back).toMatchObject({
      code: "invalid_input",
      status: 400,
      message: "orderId is required",
      details: { issues: [{ path: ["orderId"] }] },
    });
    expect(AppError.fromBody(new AppError("not_found").toBody()).message).toBe("not_found");
  });

  it("refuses a body whose code is not one of ours", () => {
    expect(errorBodySchema.safeParse({ ok: false, error: "approval_required", message: "x" }).success).toBe(false);
  });

  it("maps every code to a 4xx or 5xx status", () => {
    for (const status of Object.values(errorStatus)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
