import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("verifies the right password only, and salts every hash", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("wrong horse battery", hash)).toBe(false);
    expect(await hashPassword("correct horse battery")).not.toBe(hash);
  });

  it("rejects a stored value that is not one of our hashes", async () => {
    expect(await verifyPassword("x", "plaintext")).toBe(false);
  });
});
