// How an artifact's data reads on screen: a table when it is a flat object or a list of flat
// objects, pretty JSON otherwise, and one line of it in the transcript.

export type Scalar = string | number | boolean | null;

export type DataTable =
  /** A flat object: one row per field. */
  | { shape: "fields"; rows: [string, Scalar][] }
  /** A list of flat objects: one row per object, a column per field any of them has. */
  | { shape: "rows"; columns: string[]; rows: (Scalar | undefined)[][] };

/** More columns than this read better as JSON. */
const maxColumns = 12;

function isScalar(value: unknown): value is Scalar {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isFlatObject(value: unknown): value is Record<string, Scalar> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isScalar);
}

/** The data as a table, or null when it is not one (nested, empty, scalars, too wide). */
export function tableOf(data: unknown): DataTable | null {
  if (isFlatObject(data)) return { shape: "fields", rows: Object.entries(data) };
  if (!Array.isArray(data) || data.length === 0 || !data.every(isFlatObject)) return null;
  const columns = [...new Set(data.flatMap((row) => Object.keys(row)))];
  if (columns.length > maxColumns) return null;
  return { shape: "rows", columns, rows: data.map((row) => columns.map((column) => row[column])) };
}

/** A cell's text: strings as they are, other values as JSON, a missing field as nothing. */
export function cellText(value: Scalar | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The data on one line, cut after `max` characters: `field: value · …` for a flat object. */
export function previewOf(data: unknown, max = 120): string {
  let text: string;
  if (data === undefined) text = "no data";
  else if (typeof data === "string") text = data;
  else if (isFlatObject(data))
    text = Object.entries(data)
      .map(([field, value]) => `${field}: ${cellText(value)}`)
      .join(" · ");
  else text = JSON.stringify(data);
  text = text.replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
