import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allowAll, bearerAuth, defineChannel, DELETE, GET, localDevStrict, PATCH, POST, PUT } from "./channels";
import { descriptorKindOf } from "./descriptor";
import { definitionMessages } from "./test-support";

const handler = () => new Response("ok");

describe("route builders", () => {
  it("record method, path and config", () => {
    const bodySchema = z.object({ pr: z.number() });
    const route = POST("/review", { description: "Review a PR", bodySchema, handler });
    expect(route).toMatchObject({ method: "POST", path: "/review", description: "Review a PR", bodySchema, handler });
    expect([GET, PUT, PATCH, DELETE].map((build) => build("/x", { handler }).method)).toEqual([
      "GET",
      "PUT",
      "PATCH",
      "DELETE",
    ]);
  });
});

describe("auth helpers", () => {
  it("describe policies, and keep a bearer token out of JSON", () => {
    expect(localDevStrict()).toEqual({ policy: "localDevStrict" });
    expect(allowAll()).toEqual({ policy: "allowAll" });
    const bearer = bearerAuth("s3cret");
    expect(bearer.policy === "bearer" && bearer.token).toBe("s3cret");
    expect(JSON.stringify(bearer)).toBe('{"policy":"bearer"}');
  });

  it("turn an unset or empty token into a policy that admits nobody", () => {
    const unset = bearerAuth(undefined);
    const empty = bearerAuth("");
    expect(unset.policy === "bearer" && unset.token).toBeUndefined();
    expect(empty.policy === "bearer" && empty.token).toBeUndefined();
  });
});

describe("defineChannel", () => {
  it("normalizes a channel: routes, empty state, pack custom", () => {
    const onCompleted = async () => {};
    const channel = defineChannel({
      auth: [localDevStrict(), bearerAuth("t")],
      routes: [
        POST("/review", { handler }),
        GET("/pending/:id", { querySchema: z.object({ all: z.string().optional() }), handler }),
      ],
      events: { "message.completed": onCompleted },
    });
    expect(descriptorKindOf(channel)).toBe("channel");
    expect(channel.pack).toBe("custom");
    expect(channel.state).toEqual({});
    expect(channel.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      "POST /review",
      "GET /pending/:id",
    ]);
    expect(channel.events?.["message.completed"]).toBe(onCompleted);
    const bearer = channel.auth?.[1];
    expect(bearer?.policy === "bearer" && bearer.token).toBe("t");
    expect(defineChannel({}).routes).toEqual([]);
    expect(defineChannel({ routes: [POST("/", { handler })] }).routes).toHaveLength(1);
  });

  it("keeps JSON state and refuses state that is not JSON", () => {
    expect(defineChannel({ state: { seen: 0, tags: ["a"] } }).state).toEqual({ seen: 0, tags: ["a"] });
    expect(definitionMessages(() => defineChannel({ state: "x" } as never))).toEqual([
      "defineChannel: state: expected a JSON object",
    ]);
  });

  it("refuses bad paths, GET bodies, duplicate routes and repeated parameters", () => {
    const routes = [
      POST("/a/:id", { handler }),
      POST("/a/:name", { handler }),
      GET("b", { handler }),
      GET("/c", { bodySchema: z.object({}), handler } as never),
      PUT("/d/:x/:x", { handler }),
      POST("/e f", { handler }),
    ];
    expect(definitionMessages(() => defineChannel({ routes }))).toEqual([
      'defineChannel: routes[2].path: must start with "/"',
      "defineChannel: routes[3].bodySchema: GET routes take no body; use querySchema",
      "defineChannel: routes[4].path: repeats a path parameter",
      "defineChannel: routes[5].path: segments must be letters, digits, ._~- or :param",
      "defineChannel: routes[1].path: duplicate route POST /a/:name",
    ]);
  });

  it("refuses routes without handlers or with non-zod schemas", () => {
    expect(
      definitionMessages(() =>
        defineChannel({ routes: [{ method: "POST", path: "/x", bodySchema: { type: "object" } }] } as never),
      ),
    ).toEqual([
      "defineChannel: routes[0].bodySchema: expected a zod schema",
      "defineChannel: routes[0].handler: is required",
    ]);
  });

  it("refuses an empty or foreign auth chain, unknown event keys and a bad onStart", () => {
    expect(
      definitionMessages(() => defineChannel({ auth: [], events: { "turn.done": handler }, onStart: 1 } as never)),
    ).toEqual([
      "defineChannel: auth: give at least one policy, or leave auth out to use the agent's",
      'defineChannel: events["turn.done"]: unknown event type (expected a session event type or "*")',
      "defineChannel: onStart: expected a function",
    ]);
    expect(definitionMessages(() => defineChannel({ auth: ["bearer"] } as never))).toEqual([
      "defineChannel: auth[0]: expected localDevStrict(), bearerAuth(token) or allowAll()",
    ]);
  });
});
