import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets";

describe("redactSecrets", () => {
  it("replaces every occurrence of each value", () => {
    expect(redactSecrets("token=abcd1234; again abcd1234", ["abcd1234"])).toBe("token=[secret]; again [secret]");
  });

  it("replaces a value that contains another one whole", () => {
    expect(redactSecrets("key sk-long-secret-value", ["secret", "sk-long-secret-value"])).toBe("key [secret]");
  });

  it("leaves values shorter than 4 characters, and text without values, as they are", () => {
    expect(redactSecrets("on 1 2 abc", ["on", "abc"])).toBe("on 1 2 abc");
    expect(redactSecrets("nothing here", ["zzzz"])).toBe("nothing here");
  });

  it("takes values with characters that mean something in a pattern literally", () => {
    expect(redactSecrets("a.b*c a-b-c", ["a.b*c"])).toBe("[secret] a-b-c");
  });

  it("never redacts its own marker, even for a value the marker contains", () => {
    expect(redactSecrets("a secret: hunter22", ["secret", "hunter22"])).toBe("a [secret]: [secret]");
  });
});
