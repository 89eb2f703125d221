import { describe, expect, it } from "vitest";
import { channelRoutes, slashLabel, slashMatches } from "./channel-routes";

const body = { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] };
const channels = [
  {
    name: "webhook",
    file: "bot/channels/webhook.ts",
    routes: [
      { method: "POST", path: "/tickets", description: "Open a ticket" },
      { method: "POST", path: "/tickets/:id/ask" },
      { method: "GET", path: "/status" },
    ],
    config: {
      pack: "custom",
      routes: [
        { method: "POST", path: "/tickets/:id/ask", bodySchema: { type: "object" } },
        { method: "POST", path: "/tickets", bodySchema: body },
        { method: "GET", path: "/status", querySchema: { type: "object", properties: {} } },
      ],
    },
  },
  {
    name: "slack",
    file: "bot/channels/slack.ts",
    routes: [{ method: "POST", path: "/events" }],
    config: { pack: "slack" },
  },
];

describe("channelRoutes", () => {
  it("pairs each route with its schemas from the descriptor summary, by method and path", () => {
    const routes = channelRoutes(channels);
    expect(routes.map((route) => route.key)).toEqual([
      "webhook POST /tickets",
      "webhook POST /tickets/:id/ask",
      "webhook GET /status",
    ]);
    expect(routes[0]).toMatchObject({ description: "Open a ticket", bodySchema: body, params: [] });
    expect(routes[1]!.params).toEqual(["id"]);
    expect(routes[2]!.querySchema).toEqual({ type: "object", properties: {} });
  });

  it("leaves out packs' ingress routes and copes with a manifest without channels", () => {
    expect(channelRoutes(channels).some((route) => route.channel === "slack")).toBe(false);
    expect(channelRoutes(undefined)).toEqual([]);
  });
});

describe("slashMatches", () => {
  const routes = channelRoutes(channels);
  const labels = (text: string) => slashMatches(text, routes).map(slashLabel);

  it("offers /help first, then the routes without path parameters", () => {
    expect(labels("/")).toEqual(["/help", "/webhook POST /tickets", "/webhook GET /status"]);
  });

  it("narrows by every typed word, anywhere in the command", () => {
    expect(labels("/tick")).toEqual(["/webhook POST /tickets"]);
    expect(labels("/webhook get")).toEqual(["/webhook GET /status"]);
    expect(labels("/he")).toEqual(["/help"]);
    expect(labels("/nothing")).toEqual([]);
  });

  it("stays closed for text that is not a one-line slash command", () => {
    expect(labels("hello /help")).toEqual([]);
    expect(labels("/help\nmore")).toEqual([]);
  });
});
