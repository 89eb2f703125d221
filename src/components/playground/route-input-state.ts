// What a person is typing for one channel route, in the slash-command form or the Try modal, and
// the request it becomes. A part with a form-friendly schema is form values, any other is JSON text.
import type { ChannelRequest } from "./channel-call";
import { takesBody } from "./channel-call";
import type { ChannelRoute, JsonSchema } from "./channel-routes";
import type { RouteDraft } from "./route-drafts";
import { type FormField, type FormValues, formBody, formFields, formValues, sampleOf } from "./schema-form";

export type PartEditor = { fields: FormField[] | null; values: FormValues; json: string };
export type RouteInputs = { params: Record<string, string>; query?: PartEditor; body?: PartEditor };

const pretty = (value: unknown) => (value === undefined ? "" : JSON.stringify(value, null, 2));

function editorOf(schema: JsonSchema | undefined, last: unknown, useForm: boolean): PartEditor {
  const fields = useForm ? formFields(schema) : null;
  return {
    fields,
    values: fields ? formValues(fields, last) : {},
    json: pretty(last ?? sampleOf(schema)),
  };
}

/** Fresh inputs for a route, from its last draft; `useForm` false edits every part as JSON. */
export function initialInputs(route: ChannelRoute, draft: RouteDraft | undefined, useForm: boolean): RouteInputs {
  return {
    params: Object.fromEntries(route.params.map((name) => [name, draft?.params?.[name] ?? ""])),
    // A query needs an editor only when the route declares one, or could take nothing else.
    query:
      route.querySchema || !takesBody(route.method) ? editorOf(route.querySchema, draft?.query, useForm) : undefined,
    body: takesBody(route.method) ? editorOf(route.bodySchema, draft?.body, useForm) : undefined,
  };
}

export class InputError extends Error {}

function partValue(editor: PartEditor, label: string): unknown {
  if (editor.fields) return formBody(editor.fields, editor.values);
  if (!editor.json.trim()) return undefined;
  try {
    return JSON.parse(editor.json);
  } catch {
    throw new InputError(`The ${label} is not valid JSON.`);
  }
}

/** The request the inputs describe; throws InputError for JSON that does not parse. */
export function requestOf(route: ChannelRoute, inputs: RouteInputs): ChannelRequest {
  const query = inputs.query ? partValue(inputs.query, "query") : undefined;
  if (query !== undefined && (typeof query !== "object" || query === null || Array.isArray(query)))
    throw new InputError("The query must be a JSON object of names and values.");
  return {
    route,
    params: inputs.params,
    query: query as Record<string, unknown> | undefined,
    body: inputs.body ? partValue(inputs.body, "body") : undefined,
  };
}

export const draftOf = (request: ChannelRequest): RouteDraft => ({
  body: request.body,
  query: request.query,
  params: request.params,
});
