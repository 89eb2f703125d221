import { cellText, tableOf } from "./artifact-data";
import { JsonBlock } from "./json-block";

const cell = "border-b border-zinc-100 px-2 py-1 align-top dark:border-zinc-800";

/** An artifact's data: a table when it is flat (see tableOf), else pretty JSON. */
export function ArtifactDataView({ data }: { data: unknown }) {
  const table = tableOf(data);
  if (!table) return <JsonBlock label="Data" value={data ?? null} />;
  return (
    <div className="max-h-72 overflow-auto">
      <table className="w-full text-left text-xs" data-testid="artifact-data-table" data-shape={table.shape}>
        {table.shape === "rows" ? (
          <thead className="text-zinc-500">
            <tr>
              {table.columns.map((column) => (
                <th key={column} className={`${cell} font-semibold`}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {table.shape === "fields"
            ? table.rows.map(([field, value]) => (
                <tr key={field}>
                  <th scope="row" className={`${cell} w-1/3 font-medium text-zinc-500`}>
                    {field}
                  </th>
                  <td className={`${cell} font-mono break-all`}>{cellText(value)}</td>
                </tr>
              ))
            : table.rows.map((row, position) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place.
                <tr key={position}>
                  {row.map((value, column) => (
                    <td key={table.columns[column]} className={`${cell} font-mono break-all`}>
                      {cellText(value)}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}
