// GET /v1/openapi.json through the built app: public, and the document of the routes it serves.
import { expect, test } from "@playwright/test";
import { api, tokens } from "./client";

test("serves the OpenAPI 3.1 document without credentials, listing the routes that answer", async () => {
  const response = await api("GET", "/v1/openapi.json");
  expect(response.status, response.text).toBe(200);
  expect(response.json).toMatchObject({ openapi: "3.1.0", info: { title: "Agentfold API" } });
  const start = response.json.paths["/{slug}/v1/session"].post;
  expect(start).toMatchObject({ operationId: "startSession", "x-agentfold-actions": ["sessions:write"] });
  // A route the document lists answers at that path.
  const info = await api("GET", "/hello/v1/info", { token: tokens().owner });
  expect(response.json.paths["/{slug}/v1/info"].get.operationId).toBe("getAgentInfo");
  expect(info.json).toMatchObject({ ok: true, slug: "hello" });
});
