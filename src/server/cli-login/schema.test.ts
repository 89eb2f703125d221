import { describe, expect, it } from "vitest";
import { loginCodeSchema } from "./schema";

describe("login codes as people type them", () => {
  it("reads a code ignoring case, spaces and the dash", () => {
    for (const typed of ["BCDF-GHJK", "bcdf-ghjk", "bcdf ghjk", "BCDFGHJK"])
      expect(loginCodeSchema.parse(typed)).toBe("BCDF-GHJK");
  });

  it("refuses what cannot be a code", () => {
    for (const typed of ["BCDF-GHJ", "BCDF-GHJKL", "", "1234-5678"])
      expect(loginCodeSchema.safeParse(typed).success).toBe(false);
  });
});
