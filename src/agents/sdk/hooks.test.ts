import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "./descriptor";
import { defineHook } from "./hooks";
import { definitionMessages } from "./test-support";

describe("defineHook", () => {
  it("keeps typed and wildcard handlers as given", () => {
    const onCompleted = () => {};
    const onAll = () => {};
    const hook = defineHook({ events: { "turn.completed": onCompleted, "*": onAll } });
    expect(descriptorKindOf(hook)).toBe("hook");
    expect(hook.events["turn.completed"]).toBe(onCompleted);
    expect(hook.events["*"]).toBe(onAll);
  });

  it("accepts an empty events map (validate warns and skips the hook)", () => {
    expect(defineHook({ events: {} }).events).toEqual({});
  });

  it("rejects unknown event keys and handlers that are not functions", () => {
    expect(
      definitionMessages(() =>
        defineHook({ events: { "turn.complete": () => {}, "message.completed": "log" } } as never),
      ),
    ).toEqual([
      'defineHook: events["turn.complete"]: unknown event type (expected a session event type or "*")',
      'defineHook: events["message.completed"]: expected a function',
    ]);
  });

  it("requires the events map", () => {
    expect(definitionMessages(() => defineHook({} as never))).toEqual(["defineHook: events: is required"]);
  });
});

describe("defineHook typing", () => {
  it("narrows event data by key", async () => {
    const seen: number[] = [];
    const hook = defineHook({
      events: {
        "turn.completed": (event) => {
          seen.push(event.data.usage?.inputTokens ?? -1);
          // @ts-expect-error turn.completed carries no text; tsc fails here if narrowing breaks.
          void event.data.text;
        },
      },
    });
    const event = {
      type: "turn.completed",
      index: 0,
      sessionId: "ses_1",
      at: "2024-01-01T00:00:00Z",
      data: { usage: { inputTokens: 7, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    } as const;
    await hook.events["turn.completed"]?.(event, {} as never);
    expect(seen).toEqual([7]);
  });
});
