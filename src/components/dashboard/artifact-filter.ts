// The Artifacts page's search and kind choices, over the records loaded so far.

type Searchable = { kind: string; key: string; title?: string };

/** Records whose key or title contains the search, ignoring case; all of them for a blank one. */
export function matchingArtifacts<T extends Searchable>(records: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...records];
  return records.filter(
    (record) => record.key.toLowerCase().includes(needle) || (record.title?.toLowerCase().includes(needle) ?? false),
  );
}

/** The kinds to filter by: the declared ones in their order, then any others the records carry
 * (an agent that declares none tags "artifact"; a kind dropped from the registry keeps its records). */
export function kindChoices(declared: readonly string[], records: readonly Searchable[], current: string): string[] {
  return [...new Set([...declared, ...records.map((record) => record.kind), ...(current ? [current] : [])])];
}
