import { describe, expect, it } from "vitest";
import { toAppError } from "./to-app-error";

describe("toAppError", () => {
  it("turns unknown errors into internal_error without their text", () => {
    const mapped = toAppError(new TypeError("secret detail"));
    expect(mapped.code).toBe("internal_error");
    expect(mapped.message).not.toContain("secret");
  });

  it("maps a value the database refused to invalid_input, and nothing else a database throws", () => {
    // The shapes pg and Prisma's pg adapter throw (src/server/http/refused-value.ts).
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      name: "DriverAdapterError",
      cause: { kind: "postgres", code: "22021" },
    });
    const range = Object.assign(new Error("out of range"), {
      code: "P2020",
      meta: { driverAdapterError: { cause: { originalCode: "22003" } } },
    });
    const jsonb = Object.assign(new Error("invalid input syntax for type json"), {
      name: "DatabaseError",
      code: "22P02",
    });
    for (const error of [nul, range, jsonb])
      expect(toAppError(error)).toMatchObject({ code: "invalid_input", status: 400 });
    const lost = Object.assign(new Error("terminating connection"), { name: "DatabaseError", code: "57P01" });
    const unique = Object.assign(new Error("unique"), { code: "P2002" });
    for (const error of [lost, unique, new Error("22021")])
      expect(toAppError(error)).toMatchObject({ code: "internal_error", status: 500 });
  });
});
