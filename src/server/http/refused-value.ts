// The last line behind request validation: a value Postgres refuses to store or compare (NUL,
// a lone surrogate, an integer past int4) is the request's fault, so 400 rather than 500.
// Everything else a database throws (connection lost, constraint, deadlock) stays a server fault.

// SQLSTATEs of class 22 (data exception) that only a value can cause.
const refusedValueStates = new Set([
  "22001", // string_data_right_truncation
  "22003", // numeric_value_out_of_range
  "22021", // character_not_in_repertoire (NUL in text)
  "22P02", // invalid_text_representation (a lone surrogate in jsonb)
  "22P05", // untranslatable_character (\u0000 in jsonb)
]);

// Prisma's codes for the same faults, and its engine's words for a lone surrogate in a query.
const refusedPrismaCodes = new Set(["P2000", "P2020", "P2033"]);
const prismaSurrogate = /JSON Error: .*(hex escape|surrogate)/;

type Probe = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** The SQLSTATE or Prisma code of a refused value, when `error` is one; undefined otherwise. */
export function refusedValueCode(error: unknown): string | undefined {
  for (let probe = error as Probe | undefined, depth = 0; probe && typeof probe === "object" && depth < 4; depth++) {
    const { code, name, message } = probe;
    if (typeof code === "string" && (refusedValueStates.has(code) || refusedPrismaCodes.has(code))) return code;
    const original = (probe as { originalCode?: unknown }).originalCode;
    if (typeof original === "string" && refusedValueStates.has(original)) return original;
    if (name === "PrismaClientUnknownRequestError" && typeof message === "string" && prismaSurrogate.test(message))
      return "surrogate";
    probe = (probe.meta?.driverAdapterError ?? probe.cause) as Probe | undefined;
  }
  return undefined;
}
