import { describe, expect, it } from "vitest";
import { formBody, formFields, formValues, sampleOf } from "./schema-form";

const schema = {
  type: "object",
  properties: {
    ticketId: { type: "string", minLength: 1, description: "The helpdesk's id" },
    count: { type: "integer" },
    urgent: { type: "boolean" },
    notify: { type: "boolean" },
    tier: { type: "string", enum: ["free", "pro"] },
  },
  required: ["ticketId", "urgent"],
};

describe("formFields", () => {
  it("turns an object of strings, numbers, booleans and enums into fields with required marks", () => {
    expect(formFields(schema)).toEqual([
      { name: "ticketId", kind: "string", isRequired: true, description: "The helpdesk's id" },
      { name: "count", kind: "integer", isRequired: false },
      { name: "urgent", kind: "boolean", isRequired: true },
      { name: "notify", kind: "boolean", isRequired: false },
      { name: "tier", kind: "enum", isRequired: false, options: ["free", "pro"] },
    ]);
  });

  it("gives up (JSON editor) on nested objects, arrays, unions and non-objects", () => {
    expect(formFields({ type: "object", properties: { tags: { type: "array" } } })).toBeNull();
    expect(
      formFields({ type: "object", properties: { who: { anyOf: [{ type: "string" }, { type: "null" }] } } }),
    ).toBeNull();
    expect(formFields({ type: "string" })).toBeNull();
    expect(formFields(undefined)).toBeNull();
  });
});

describe("formBody and formValues", () => {
  const fields = formFields(schema)!;

  it("sends numbers as numbers and leaves empty optional fields out", () => {
    expect(formBody(fields, { ticketId: "T-1", count: "3", urgent: "true", notify: "", tier: "" })).toEqual({
      ticketId: "T-1",
      count: 3,
      urgent: true,
    });
    expect(formBody(fields, { ticketId: "", urgent: "false", notify: "false", tier: "pro" })).toEqual({
      ticketId: "",
      urgent: false,
      notify: false,
      tier: "pro",
    });
  });

  it("fills the form from a remembered body, a round trip", () => {
    const body = { ticketId: "T-9", count: 2, urgent: true, tier: "free" };
    expect(formBody(fields, formValues(fields, body))).toEqual(body);
    expect(formValues(fields, undefined)).toEqual({ urgent: "false" });
  });
});

describe("sampleOf", () => {
  it("starts the JSON editor with every property at an empty value of its type", () => {
    expect(sampleOf(schema)).toEqual({ ticketId: "", count: 0, urgent: false, notify: false, tier: "free" });
    expect(sampleOf({ type: "string" })).toBeUndefined();
  });
});
