"use client";
// The inputs of one channel route: its path parameters, and its query and body as a small form
// (string, number, boolean and enum fields; * marks a required one) or as JSON.
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import type { RouteInputs as Inputs, PartEditor } from "./route-input-state";
import type { FormField } from "./schema-form";

type Props = { inputs: Inputs; onChange: (inputs: Inputs) => void };

export function RouteInputs({ inputs, onChange }: Props) {
  return (
    <div className="space-y-3">
      {Object.entries(inputs.params).map(([name, value]) => (
        <Field key={name} label={`:${name} *`}>
          <Input
            data-testid={`route-param-${name}`}
            required
            value={value}
            onChange={(event) => onChange({ ...inputs, params: { ...inputs.params, [name]: event.target.value } })}
          />
        </Field>
      ))}
      {inputs.query ? (
        <PartInputs part="query" editor={inputs.query} onChange={(query) => onChange({ ...inputs, query })} />
      ) : null}
      {inputs.body ? (
        <PartInputs part="body" editor={inputs.body} onChange={(body) => onChange({ ...inputs, body })} />
      ) : null}
    </div>
  );
}

function PartInputs({
  part,
  editor,
  onChange,
}: {
  part: "query" | "body";
  editor: PartEditor;
  onChange: (editor: PartEditor) => void;
}) {
  const { fields } = editor;
  if (!fields)
    return (
      <Field label={part === "body" ? "Body (JSON)" : "Query (JSON object)"}>
        <Textarea
          data-testid={`route-${part}-json`}
          rows={Math.min(12, Math.max(3, editor.json.split("\n").length))}
          spellCheck={false}
          className="font-mono text-xs"
          value={editor.json}
          onChange={(event) => onChange({ ...editor, json: event.target.value })}
        />
      </Field>
    );
  if (fields.length === 0) return <p className="text-xs text-zinc-500">The {part} has no fields.</p>;
  return (
    <fieldset className="space-y-2" data-testid={`route-${part}-form`}>
      <legend className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{part}</legend>
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          part={part}
          field={field}
          value={editor.values[field.name] ?? ""}
          onChange={(value) => onChange({ ...editor, values: { ...editor.values, [field.name]: value } })}
        />
      ))}
    </fieldset>
  );
}

function FieldInput({
  part,
  field,
  value,
  onChange,
}: {
  part: string;
  field: FormField;
  value: string;
  onChange: (value: string) => void;
}) {
  const testId = `route-${part}-field-${field.name}`;
  const label = `${field.name}${field.isRequired ? " *" : ""}`;
  if (field.kind === "boolean" && field.isRequired)
    return (
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          data-testid={testId}
          checked={value === "true"}
          onChange={(event) => onChange(String(event.target.checked))}
        />
        <span className="font-medium">{label}</span>
        {field.description ? <span className="text-xs text-zinc-500">{field.description}</span> : null}
      </label>
    );
  const options = field.kind === "boolean" ? ["true", "false"] : field.options;
  return (
    <Field label={label} hint={field.description}>
      {options ? (
        <Select
          data-testid={testId}
          required={field.isRequired}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{field.isRequired ? "Choose…" : "(leave out)"}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </Select>
      ) : (
        <Input
          data-testid={testId}
          type={field.kind === "string" ? "text" : "number"}
          step={field.kind === "integer" ? 1 : "any"}
          required={field.isRequired}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
