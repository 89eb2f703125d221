// GET /v1/openapi.json: a valid OpenAPI 3.1 document (checked against the specification's own
// schema), public, listing every route of the table with its schemas.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiPath } from "./openapi";
import { v1Handlers, v1Routes } from "./v1-routes";

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function fetchDocument(): Promise<{ status: number; type: string | null; document: Document }> {
  const { GET } = v1Handlers("/v1/openapi.json");
  // No credentials: the document is public.
  const response = await GET(new Request("http://localhost/v1/openapi.json"), { params: Promise.resolve({}) });
  return { status: response.status, type: response.headers.get("content-type"), document: await response.json() };
}

describe("GET /v1/openapi.json", () => {
  it("answers without credentials with a valid OpenAPI 3.1 document", async () => {
    const { status, type, document } = await fetchDocument();
    expect(status).toBe(200);
    expect(type).toContain("application/json");
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("resolves every $ref inside the document", async () => {
    const { document } = await fetchDocument();
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith("#/"), ref).toBe(true);
      const target = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
      expect(target, ref).toBeDefined();
    }
  });

  it("lists every route of the table with its parameters, body and answer", async () => {
    const { document } = await fetchDocument();
    const listed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(v1Routes.map((route) => `${route.method} ${openApiPath(route.path)}`).sort());
    for (const route of v1Routes) {
      const operation = document.paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
      expect(operation.operationId).toBe(route.name);
      const pathParameters = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(pathParameters.sort()).toEqual(Object.keys(route.params?.shape ?? {}).sort());
      expect(Boolean(operation.requestBody), route.name).toBe(Boolean(route.body));
      const media =
        "ndjson" in route.response
          ? "application/x-ndjson"
          : "html" in route.response
            ? "text/html"
            : "application/json";
      expect(Object.keys(operation.responses["200"]!.content!), route.name).toEqual([media]);
      expect(operation.security, route.name).toEqual(route.access === "public" ? [] : undefined);
    }
  });

  it("describes bodies, queries and streams from the zod schemas", async () => {
    const { document } = await fetchDocument();
    const start = document.paths["/{slug}/v1/session"]!.post!;
    const body = start.requestBody!.content["application/json"] as { schema: { required: string[] } };
    expect(body.schema.required).toEqual(["message"]);
    const list = document.paths["/{slug}/v1/session"]!.get!;
    expect(list.parameters?.map((p) => p.name)).toEqual(["slug", "limit", "cursor", "channel", "mode", "status", "q"]);
    const stream = document.paths["/{slug}/v1/session/{id}/stream"]!.get!;
    expect(JSON.stringify(stream.responses["200"]!.content!["application/x-ndjson"])).toContain("session.started");
    const upload = document.paths["/v1/agents/{slug}/versions"]!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(["application/zip", "application/gzip"]);
  });
});
