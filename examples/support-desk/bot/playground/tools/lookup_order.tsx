// Rendered by the playground for lookup_order calls.
export default function LookupOrderChip({
  output,
}: {
  output: { found: boolean; order?: { id: string; status: string } };
}) {
  return <span>{output.found ? `${output.order?.id}: ${output.order?.status}` : "no such order"}</span>;
}
