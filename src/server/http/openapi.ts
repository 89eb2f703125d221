// The OpenAPI 3.1 document of the /v1 route table, from zod 4's JSON Schema output: so API clients
// can generate a client. Per-agent routes are listed at /{slug}/v1/…; in single-agent mode the same
// operations also answer at /v1/… (docs/api.md, "Single-agent local mode").
import { z } from "zod";
import { errorBodySchema, errorStatus } from "@/server/errors";
import type { V1Route } from "./v1-route";

type JsonSchema = Record<string, unknown>;

/** `/:slug/v1/session/:id` as OpenAPI writes it: `/{slug}/v1/session/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, "{$1}");
}

/** One schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); its `$defs` (recursive JSON values)
 * move to components under `name.`, since a `#/$defs` ref resolves against the whole document. */
function jsonSchema(schema: z.ZodType, name: string, components: Record<string, JsonSchema>): JsonSchema {
  // "input" for answers too: an object's unknown fields are not refused, so answers may grow.
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const rewrite = (value: unknown): JsonSchema =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"#/components/schemas/${name}.`));
  for (const [key, definition] of Object.entries($defs ?? {})) components[`${name}.${key}`] = rewrite(definition);
  return rewrite(rest);
}

function properties(schema: JsonSchema): [string, JsonSchema, boolean][] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([key, value]) => [
    key,
    value,
    required.has(key),
  ]);
}

function operation(route: V1Route, components: Record<string, JsonSchema>) {
  const pascal = route.name[0]!.toUpperCase() + route.name.slice(1);
  const parameters = [
    ...(route.params ? properties(jsonSchema(route.params, `${pascal}Params`, components)) : []).map(
      ([name, schema]) => ({ name, in: "path", required: true, schema }),
    ),
    ...(route.query ? properties(jsonSchema(route.query, `${pascal}Query`, components)) : []).map(
      ([name, schema, required]) => ({ name, in: "query", required, schema }),
    ),
  ];
  const body = route.body;
  const requestBody = !body
    ? undefined
    : "raw" in body
      ? {
          required: true,
          content: Object.fromEntries(body.raw.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
        }
      : {
          required: true,
          content: { "application/json": { schema: jsonSchema(body as z.ZodType, `${pascal}Body`, components) } },
        };
  const answer =
    "json" in route.response
      ? { "application/json": { schema: jsonSchema(route.response.json, `${pascal}Response`, components) } }
      : "ndjson" in route.response
        ? { "application/x-ndjson": { schema: jsonSchema(route.response.ndjson, `${pascal}Line`, components) } }
        : { "text/html": { schema: { type: "string" } } };
  const ok = {
    description:
      "ndjson" in route.response
        ? "One JSON value per line, each matching the schema"
        : "html" in route.response
          ? route.response.html
          : "OK",
    content: answer,
  };
  return {
    operationId: route.name,
    summary: route.summary,
    tags: [route.path.startsWith("/:slug/") ? "agent" : "host"],
    ...(route.access === "public" ? { security: [] } : {}),
    ...(Array.isArray(route.access) ? { "x-agentfold-actions": route.access } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      "200": ok,
      ...Object.fromEntries((route.alsoAnswers ?? []).map((status) => [String(status), ok])),
      default: {
        description: `An error: ${Object.keys(errorStatus).join(", ")}`,
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    },
  };
}

export function openApiDocument(routes: V1Route[]) {
  const components: Record<string, JsonSchema> = { Error: jsonSchema(errorBodySchema, "Error", {}) };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Agentfold API",
      // The API's version, as its paths say; not the package's.
      version: "1",
      description:
        "Per-agent routes are at /{slug}/v1/…; in single-agent mode (AGENTFOLD_SINGLE_AGENT) they also answer at /v1/…. " +
        "x-agentfold-actions lists the token actions of which the caller needs one.",
    },
    tags: [
      { name: "agent", description: "An agent's routes: sessions, tools, schedules, secrets" },
      { name: "host", description: "The instance's routes" },
    ],
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A team token, af_…" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "The dashboard sign-in (__Secure-next-auth.session-token over https)",
        },
      },
      schemas: components,
    },
  };
}
